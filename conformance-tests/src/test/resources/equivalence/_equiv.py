"""Shared by the equivalence scripts: the conformance cases' helpers (cases/_par_common.py) and
rank-slice arithmetic for comparing a sharded parameter with the stand-alone one."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cases"))


def rank_slice(full, layout, rank):
    """``rank``'s slice of the whole tensor ``full`` under a parameter_layout_dict entry
    (device matrix, tensor map counted from the right, slice shape, ...)."""
    dev_matrix, tensor_map, slice_shape = layout[0], layout[1], layout[2]
    coords, rest = [], rank
    for size in reversed(dev_matrix):
        coords.append(rest % size)
        rest //= size
    index = []
    for dim, axes in enumerate(tensor_map):
        # A dimension split over several axes (a list, outermost first) takes slice
        # c0 * |a1| + c1 ... of them.
        part = 0
        for axis in axes if isinstance(axes, list) else [axes]:
            if axis != -1:
                part = part * dev_matrix[-axis - 1] + coords[axis]
        index.append(slice(part * slice_shape[dim], (part + 1) * slice_shape[dim]))
    return full[tuple(index)]


def losses_match(got, ref, rel=1e-5):
    """Whether two per-step loss sequences have the same length and agree within ``rel``, relative."""
    return len(got) == len(ref) and all(abs(a - b) <= rel * abs(b) for a, b in zip(got, ref))


def slice_matches(param, ref_slice):
    """Whether a rank's parameter slice equals the stand-alone slice within float32 tolerance,
    element by element |a - b| <= 1e-5 + 1.3e-6 |b| (torch.testing's float32 defaults): the N-rank run
    sums gradients in another order than the stand-alone GEMM, and ten SGD steps carry those last-bit
    differences into the weights (measured up to 3.5e-6 on an AMD EPYC with OpenBLAS's Haswell kernels)."""
    from mindspore import ops
    diff = ops.abs(param - ref_slice)
    bound = ops.abs(ref_slice) * 1.3e-6 + 1e-5
    return ops.ReduceMax()(diff - bound).item() <= 0


def shard(prim, strategy):
    """``prim.shard(strategy)``, or ``prim`` itself when there is no strategy (left to the search)."""
    return prim.shard(strategy) if strategy else prim
