# A .ckpt written by msjvm (conformance-tests/tools/make_ckpt_files.py msjvm). The golden is real
# MindSpore 2.10 loading it, so this case shows that MindSpore reads our files, and that we print
# the same.
from ckpt_data.show import show_file

show_file("msjvm")
