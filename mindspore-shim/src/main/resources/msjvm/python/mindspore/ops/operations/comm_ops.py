"""``mindspore.ops.operations.comm_ops``: the communication primitives by MindSpore's module path,
NeighborExchange, NeighborExchangeV2, and ``_VirtualDataset``, the marker of dataset inputs."""
from mindspore.ops.primitive import Primitive
from mindspore.ops.operations import (AllGather, AllReduce, AlltoAll, Broadcast, Receive, ReduceOp,  # noqa: F401
                                      ReduceScatter, Send)


class _VirtualDataset(Primitive):
    """Marks its inputs as the dataset's (MindSpore's planner redistributes them from the data-parallel
    layout); the planner here lays out a network's arguments by the dataset strategy already, so the
    inputs pass through unchanged (a tuple, as MindSpore returns)."""

    def __init__(self):
        super().__init__("_VirtualDataset")
        self.add_prim_attr("order_enforce_skip", True)

    def __call__(self, *args):
        return args


virtual_dataset = _VirtualDataset()


class NeighborExchangeV2(Primitive):
    """The halo exchange of an NCHW tensor with up to eight neighbours: ``send_rank_ids``/``recv_rank_ids``
    name a rank (or -1) per direction (top, top-right, right, bottom-right, bottom, bottom-left, left,
    top-left), ``send_lens``/``recv_lens`` the rows/columns (top, bottom, left, right). The output is the
    input framed by what it receives: ``(N, C, H + recv_top + recv_bottom, W + recv_left + recv_right)``
    (a side counts where its rank is not -1). The checks of MindSpore's infer run when it is called."""

    def __init__(self, send_rank_ids, send_lens, recv_rank_ids, recv_lens, data_format, group=None):
        from mindspore import _checkparam as validator  # pylint: disable=import-outside-toplevel
        from mindspore.ops.operations import _world_group  # pylint: disable=import-outside-toplevel
        from mindspore.communication.management import get_group_size  # pylint: disable=import-outside-toplevel
        super().__init__("NeighborExchangeV2")
        self.send_rank_ids = send_rank_ids
        self.recv_rank_ids = recv_rank_ids
        self.send_lens = send_lens
        self.recv_lens = recv_lens
        self.format = data_format
        group = _world_group(group)
        for name, value in (("send_rank_ids", send_rank_ids), ("send_lens", send_lens),
                            ("recv_rank_ids", recv_rank_ids), ("recv_lens", recv_lens), ("format", data_format),
                            ("group", group), ("no_eliminate", True)):
            self.add_prim_attr(name, value)
        self.rank_size = _planned_size(group, get_group_size)
        for name, ids in (("send_rank_ids", send_rank_ids), ("recv_rank_ids", recv_rank_ids)):
            for rank_id in ids:
                if rank_id != -1:
                    validator.check_number_range(rank_id, 0, self.rank_size, validator.INC_LEFT, int,
                                                 f"rank_id in {name}")

    _prepare = staticmethod(lambda h, name, attrs: h.collective(name, attrs))

    def __call__(self, *inputs):
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        name = self.name
        if len(inputs) != 1:
            raise ValueError(f"For primitive[{name}], the input number must be equal to 1, but got {len(inputs)}.")
        x = inputs[0]
        send_ids = _exchange_list(name, "send_rank_ids", self.send_rank_ids, 8)
        recv_ids = _exchange_list(name, "recv_rank_ids", self.recv_rank_ids, 8)
        send_lens = _exchange_list(name, "send_lens", self.send_lens, 4)
        _exchange_list(name, "recv_lens", self.recv_lens, 4)
        for ids in (send_ids, recv_ids):
            seen = set()
            for i in ids:
                if i < 0 and i != -1:
                    raise ValueError(f"For '{name}', all the rank id must be >= 0 or = -1, but got invalid id:{i}.")
                if i in seen and i != -1:
                    raise ValueError(f"For '{name}', 'send_rank_ids' or 'recv_rank_ids' can not be repeated, "
                                     f"but got id :{i} repeated.")
                seen.add(i)
        for lens in (send_lens, self.recv_lens):
            for n in lens:
                if n < 0:
                    raise ValueError(f"For '{name}', 'send_lens' or 'recv_lens' must be >=0, but got invalid len:{n}.")
        for a, b, corner in ((0, 2, 1), (2, 4, 3), (4, 6, 5), (6, 0, 7)):
            both = recv_ids[a] != -1 and recv_ids[b] != -1
            if both != (recv_ids[corner] != -1):
                first = "or" if both else "and"
                verbs = ("must be -1", "can not be -1") if both else ("can not be -1", "must be -1")
                raise ValueError(f"For '{name}', recv_rank_ids[{a}] {first} recv_rank_ids[{b}] {verbs[0]}, or "
                                 f"recv_rank_ids[{corner}] {verbs[1]}. But got recv_rank_ids[{a}]: {recv_ids[a]}, "
                                 f"recv_rank_ids[{b}]: {recv_ids[b]}, and recv_rank_ids[{corner}]: "
                                 f"{recv_ids[corner]}.")
        if not isinstance(self.format, str):
            raise TypeError(f"For '{name}', attr 'format' must be a str.")
        if self.format != "NCHW":
            raise ValueError(f"For '{name}', attr 'data_format' only support NCHW now, but got {self.format}.")
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{name}', the input must be a Tensor, but got {type(x).__name__}.")
        if len(x.shape) != 4:
            raise ValueError(f"For '{name}', input shape size must be 4, but got {len(x.shape)}, and only support "
                             f"NCHW now.")
        for i, (dim, dim_name) in enumerate(((2, "H"), (2, "H"), (3, "W"), (3, "W"))):
            if send_lens[i] > x.shape[dim]:
                raise ValueError(f"For '{name}', attr send_lens[{i}] must be less than or equal to input size in "
                                 f"{dim_name} dim, but got send_lens[{i}]: {send_lens[i]}, input size in {dim_name} "
                                 f"dim: {x.shape[dim]}.")
        if not isinstance(self.attrs["group"], str):
            raise TypeError(f"For '{name}', attr 'group' must be a str.")
        # A side frames the output only where its rank is given (top, bottom, left, right are the
        # directions 0, 4, 6, 2); the engine's exchange frames every side its length names.
        framed = [n if recv_ids[d] != -1 else 0 for n, d in zip(self.recv_lens, (0, 4, 6, 2))]
        return self._run_engine(x, extra=("recv_lens", framed))


class NeighborExchange(Primitive):
    """Sends tensor i of its input tuple to ``send_rank_ids[i]`` and returns the tuple of what
    ``recv_rank_ids[j]`` sends, shaped ``recv_shapes[j]`` and typed ``recv_type``; ``send_shapes``
    must be the inputs' shapes. A rank may send to itself. With no ranks to receive from it returns
    None; with none to send to it takes no input. The checks of MindSpore's infer run when it is
    called."""

    def __init__(self, send_rank_ids, recv_rank_ids, recv_shapes, send_shapes, recv_type, group=None):
        from mindspore.ops.operations import _world_group  # pylint: disable=import-outside-toplevel
        super().__init__("NeighborExchange")
        group = _world_group(group)
        self.send_rank_ids = send_rank_ids
        self.recv_rank_ids = recv_rank_ids
        self.recv_shapes = recv_shapes
        self.send_shapes = send_shapes
        self.recv_type = recv_type
        self.group = group
        for name, value in (("send_rank_ids", send_rank_ids), ("recv_rank_ids", recv_rank_ids),
                            ("recv_shapes", recv_shapes), ("send_shapes", send_shapes), ("recv_type", recv_type),
                            ("group", group), ("no_eliminate", True)):
            self.add_prim_attr(name, value)

    _prepare = staticmethod(lambda h, name, attrs: h.collective(name, attrs))

    def _engine_attrs(self):
        return []  # __call__ passes the checked attributes

    def __call__(self, *inputs):
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        name = self.name
        recv_shapes = _exchange_shapes(name, "recv_shapes", self.recv_shapes, "recv_rank_ids", self.recv_rank_ids)
        send_shapes = _exchange_shapes(name, "send_shapes", self.send_shapes, "send_rank_ids", self.send_rank_ids)
        if not isinstance(self.recv_type, mstype.Type):
            raise TypeError(f"For '{name}', attr 'recv_type' must be a mindspore data type, but got: "
                            f"{self.recv_type}.")
        if not isinstance(self.group, str):
            raise TypeError(f"For '{name}', attr 'group' must be a str, but got: {self.group}.")
        if not self.send_rank_ids:
            if inputs:
                raise ValueError(f"For primitive[{name}], the input_numbers must be equal to 0, but got "
                                 f"{len(inputs)}.")
            sent = ()
        else:
            if len(inputs) != 1:
                raise ValueError(f"For primitive[{name}], the input_numbers must be equal to 1, but got "
                                 f"{len(inputs)}.")
            sent = inputs[0]
            if not isinstance(sent, tuple):
                raise TypeError(f"For primitive[{name}], the input[0] should be a Tuple, but got "
                                f"{type(sent).__name__}.")
            # MindSpore raises these as its ArgumentError, which reaches Python as a RuntimeError.
            if len(sent) != len(send_shapes):
                raise RuntimeError(f"For '{name}', input tuple size must be equal to attr 'send_shapes' size, but "
                                   f"got input tuple size: {len(sent)}, attr 'send_shapes' size: {len(send_shapes)}.")
            for i, (x, shape) in enumerate(zip(sent, send_shapes)):
                if not isinstance(x, Tensor):
                    raise TypeError(f"For '{name}', input[{i}] must be a Tensor, but got {type(x).__name__}.")
                if list(x.shape) != shape:
                    raise RuntimeError(f"For '{name}', input[{i}] shape must be equal to attr shape, but got "
                                       f"input[{i}] shape: {_shape_str(x.shape)}, attr shape : {_shape_str(shape)}.")
        outputs = self._run_engine(*sent, all_outputs=True, extra=(
            "send_rank_ids", list(self.send_rank_ids), "recv_rank_ids", list(self.recv_rank_ids),
            "recv_shapes", recv_shapes, "recv_type", self.recv_type.engine_name, "group", self.group))
        return outputs if outputs else None


def _exchange_shapes(prim, shape_name, shapes, ids_name, ids):
    """MindSpore's CheckAttr of NeighborExchange: ``shapes`` a tuple of int lists, ``ids`` a list of
    ints, as many of each; the shapes as lists."""
    if not isinstance(shapes, tuple):
        raise TypeError(f"For '{prim}', attr '{shape_name}' must be a tuple(list, list, ...).")
    if shapes and not isinstance(shapes[0], (list, tuple)):
        raise TypeError(f"For '{prim}',  first element of attr {shape_name} is necessary, but missing it.")
    if not isinstance(ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
        raise TypeError(f"For '{prim}', attr '{ids_name}' must be a list[int, int, ...].")
    if len(shapes) != len(ids):
        raise ValueError(f"For '{prim}', attr '{shape_name}' size must be equal to attr  '{ids_name}' size, but got "
                         f"attr '{shape_name}' size: {len(shapes)}, attr '{ids_name}' size: {len(ids)}")
    out = []
    for shape in shapes:
        if not isinstance(shape, (list, tuple)) or not all(isinstance(d, int) and not isinstance(d, bool)
                                                           for d in shape):
            raise TypeError(f"For '{prim}', attr '{shape_name}' must be a tuple(list, list, ...).")
        out.append(list(shape))
    return out


def _shape_str(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _planned_size(group, get_group_size):
    """The size of ``group``; for the world group before ``init()``, or after the ``init()`` of a
    one-rank job, the world a compile plans for: the auto-parallel device_num where it is set
    (MindSpore's compile-only tests build exchanges before any init, or after ``init("hccl")``
    without a launcher, where its UT backend answers device_num)."""
    if not isinstance(group, str):
        return get_group_size(group)  # MindSpore's TypeError for a group that is not a str
    from mindspore.communication import _comm_helper  # pylint: disable=import-outside-toplevel
    from mindspore.parallel._auto_parallel_context import auto_parallel_context  # pylint: disable=import-outside-toplevel
    if auto_parallel_context().get_device_num_is_set():
        joined = _comm_helper._joined()  # pylint: disable=protected-access
        if not joined or (group == _comm_helper.GlobalComm.WORLD_COMM_GROUP and get_group_size(group) == 1):
            return auto_parallel_context().get_device_num()
    return get_group_size(group)


def _exchange_list(prim, name, value, size):
    """MindSpore's CheckAttrSize: a list of ``size`` ints."""
    if not isinstance(value, list):
        raise TypeError(f"For '{prim}', attr '{name}' must be a list and is necessary, but missing it.")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise TypeError(f"For '{prim}', attr '{name}' must be a list[int, int, ...].")
    if len(value) != size:
        raise ValueError(f"For '{prim}', attr '{name}' size must be equal to attr_value size, but got attr {name} "
                         f"size: {size}, attr_value size: {len(value)}.")
    return value
