# A .ckpt written by real MindSpore 2.10 (conformance-tests/tools/make_ckpt_files.py mindspore):
# a two-layer Dense net with append_dict entries, and one tensor of each dtype.
from ckpt_data.show import show_file

show_file("mindspore")
