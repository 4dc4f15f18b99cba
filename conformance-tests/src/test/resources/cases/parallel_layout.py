# mindspore.parallel.Layout (also mindspore.Layout and mindspore.parallel.shard.Layout): constructor
# checks, tensor maps counted from the right of the device matrix, multi-axis dims, "None",
# interleaved_parallel, rank_list, to_dict.
import mindspore as ms
from mindspore.parallel import Layout
from mindspore.parallel.shard import Layout as ShardLayout
from _case_util import attempt

print("same class:", ms.Layout is Layout, ShardLayout is Layout)
print("mindspore.parallel.shard is", type(ms.parallel.shard).__name__)

layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
print(layout("dp", "mp").to_dict())
print(layout("mp", "sp", "dp").to_dict()["tensor_map"])
print(layout(("dp", "sp"), "None", "mp").to_dict()["tensor_map"])
print(layout(("dp", "None"), "mp").to_dict()["tensor_map"])
print(layout().to_dict()["tensor_map"])
print(Layout((8,), ("dp",))("dp", "None").to_dict())
called = layout("dp", "mp")
print("call returns a copy:", called is not layout, type(called).__name__)
print(Layout((4, 2), ("dp", "mp"), [7, 6, 5, 4, 3, 2, 1, 0])("mp", "dp").to_dict())
inter = Layout((2, 2, 2), ("dp", "sp", "interleaved_parallel"))
print(inter(("dp", "interleaved_parallel"), "sp").to_dict())
attempt("empty device matrix", lambda: Layout((), ()))

attempt("device_matrix list", lambda: Layout([2, 2], ("dp", "mp")))
attempt("alias_name list", lambda: Layout((2, 2), ["dp", "mp"]))
attempt("length mismatch", lambda: Layout((2, 2), ("dp",)))
attempt("float in device_matrix", lambda: Layout((2, 2.0), ("dp", "mp")))
attempt("int alias", lambda: Layout((2, 2), ("dp", 1)))
attempt("empty alias", lambda: Layout((2, 2), ("dp", "")))
attempt("alias None", lambda: Layout((2, 2), ("dp", "None")))
attempt("repeated alias", lambda: Layout((2, 2), ("dp", "dp")))
attempt("interleaved not last", lambda: Layout((2, 2, 2), ("interleaved_parallel", "dp", "mp")))
attempt("rank_list tuple", lambda: Layout((2, 2), ("dp", "mp"), (0, 1, 2, 3)))
attempt("rank_list str item", lambda: Layout((2, 2), ("dp", "mp"), [0, 1, "2", 3]))
attempt("rank_list too short", lambda: Layout((2, 2), ("dp", "mp"), [0, 1, 2]))
attempt("unknown axis", lambda: layout("dp", "tp"))
attempt("unknown axis in tuple", lambda: layout(("dp", "tp"), "mp"))
attempt("axis used twice", lambda: layout("dp", "dp"))
attempt("axis used twice in tuple", lambda: layout(("dp", "mp"), "mp"))
attempt("to_dict before call", lambda: Layout((2, 2), ("dp", "mp")).to_dict())
