"""FlashAttentionScore (MindSpore 2.10's fused attention, generated there from its op yaml) and
DropoutGenMask, which makes the dropout bits FlashAttentionScore reads when ``keep_prob < 1``.

The engine computes the attention exactly (``FlashAttention`` in the engine: no tiling, double
precision inside, the query's type out), so it runs on the CPU here; MindSpore's kernel exists for
Atlas A2 only. Optional inputs a call leaves None are not the engine node's inputs: the node has
query, key, value and then the present ones in MindSpore's order, as MindSpore's in_strategy lists
them (FlashAttentionScoreInfo counts only the inputs passed)."""
from mindspore.ops.primitive import Primitive
from mindspore.ops.operations._nn_ops import _tensor_cls, _type_name

__all__ = ["FlashAttentionScore", "DropoutGenMask"]

_LAYOUTS = ("BSH", "BNSD", "SBH", "BSND", "TND")


class FlashAttentionScore(Primitive):
    """``softmax_max, softmax_sum, softmax_out, attention_out = FlashAttentionScore(...)(query, key,
    value, real_shift, drop_mask, padding_mask, attn_mask, prefix, actual_seq_qlen, actual_seq_kvlen)``:
    ``attention_out = Dropout(Softmax(Mask(scale_value * (query key^T + real_shift))), keep_prob) value``.
    """

    def __init__(self, head_num, keep_prob=1.0, scale_value=1.0, pre_tokens=2147483647, next_tokens=2147483647,
                 inner_precise=0, input_layout="BSH", sparse_mode=0):
        super().__init__("FlashAttentionScore")
        for name, value in (("head_num", head_num), ("pre_tokens", pre_tokens), ("next_tokens", next_tokens),
                            ("inner_precise", inner_precise), ("sparse_mode", sparse_mode)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'FlashAttentionScore', the type of '{name}' should be int, "
                                f"but got {type(value).__name__}.")
        for name, value in (("keep_prob", keep_prob), ("scale_value", scale_value)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"For 'FlashAttentionScore', the type of '{name}' should be float, "
                                f"but got {type(value).__name__}.")
        if input_layout not in _LAYOUTS:
            raise ValueError("FlashAttentionScore support input layout: BSH, BNSD, SBH, BSND, TND.")
        self.add_prim_attr("head_num", head_num)
        self.add_prim_attr("keep_prob", float(keep_prob))
        self.add_prim_attr("scale_value", float(scale_value))
        self.add_prim_attr("pre_tokens", pre_tokens)
        self.add_prim_attr("next_tokens", next_tokens)
        self.add_prim_attr("inner_precise", inner_precise)
        self.add_prim_attr("input_layout", input_layout)
        self.add_prim_attr("sparse_mode", sparse_mode)

    def __call__(self, query, key, value, real_shift=None, drop_mask=None, padding_mask=None, attn_mask=None,
                 prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None):
        tensor = _tensor_cls()
        for name, x in (("query", query), ("key", key), ("value", value)):
            if not isinstance(x, tensor):
                raise TypeError(f"For 'FlashAttentionScore', the input '{name}' must be a Tensor, "
                                f"but got {_type_name(x)}.")
        if padding_mask is not None:
            raise ValueError("FlashAttentionScore: 'padding_mask' must be None currently.")
        if prefix is not None and self.attrs["sparse_mode"] != 5:
            raise ValueError("FlashAttentionScore: 'prefix' must be None if sparse_mode is not 5")
        layout = self.attrs["input_layout"]
        if layout == "TND" and (actual_seq_qlen is None or actual_seq_kvlen is None):
            raise ValueError("FlashAttentionScore: actual_seq_qlen and actual_seq_kvlen should be not none.")
        inputs = [query, key, value]
        flags = []
        for name, x in (("real_shift", real_shift), ("drop_mask", drop_mask), ("attn_mask", attn_mask)):
            if x is not None and not isinstance(x, tensor):
                raise TypeError(f"For 'FlashAttentionScore', the input '{name}' must be a Tensor or None, "
                                f"but got {_type_name(x)}.")
            flags.extend((f"has_{name}", x is not None))
            if x is not None:
                inputs.append(x)
        lens = actual_seq_qlen is not None or actual_seq_kvlen is not None
        if lens:
            inputs.extend(_lengths(name, x) for name, x in (("actual_seq_qlen", actual_seq_qlen),
                                                            ("actual_seq_kvlen", actual_seq_kvlen)))
        flags.extend(("has_seq_lens", lens))
        return self._run_engine(*inputs, all_outputs=True, extra=tuple(flags))


def _lengths(name, value):
    """actual_seq_qlen/actual_seq_kvlen as an int64 tensor (MindSpore takes a tuple, list or tensor)."""
    tensor = _tensor_cls()
    if isinstance(value, tensor):
        return value
    if isinstance(value, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        return tensor(list(value), mstype.int64)
    raise TypeError(f"For 'FlashAttentionScore', the input '{name}' must be a tuple of int, a list of int or a "
                    f"Tensor, but got {_type_name(value)}.")


class DropoutGenMask(Primitive):
    """The bits of a dropout mask for ``shape`` (1 keeps an element, with probability ``keep_prob``):
    ``ceil(prod(shape) / 128) * 16`` uint8 bytes, least significant bit first."""

    def __init__(self, Seed0=0, Seed1=0):  # pylint: disable=invalid-name
        super().__init__("DropoutGenMask")
        for name, value in (("Seed0", Seed0), ("Seed1", Seed1)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'DropoutGenMask', the type of '{name}' should be int, "
                                f"but got {type(value).__name__}.")
        self.add_prim_attr("Seed0", Seed0)
        self.add_prim_attr("Seed1", Seed1)
        self._rng = None

    def __call__(self, shape, keep_prob):
        tensor = _tensor_cls()
        if not isinstance(shape, tuple) or not all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
            raise TypeError(f"For 'DropoutGenMask', the 'shape' must be a tuple of int, but got {shape}.")
        if any(d <= 0 for d in shape):
            raise ValueError(f"For 'DropoutGenMask', each dim of 'shape' must be positive, but got {shape}.")
        if not isinstance(keep_prob, tensor):
            from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
            if isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float)):
                raise TypeError(f"For 'DropoutGenMask', the 'keep_prob' must be a Tensor or a float, "
                                f"but got {_type_name(keep_prob)}.")
            keep_prob = tensor(float(keep_prob), mstype.float32)
        if self._rng is None:
            from mindspore._host import host  # pylint: disable=import-outside-toplevel
            from mindspore.common.seed import get_seed  # pylint: disable=import-outside-toplevel
            own = self.attrs["Seed0"] or self.attrs["Seed1"]
            if own:
                # Its own seeds alone fix the bits (MindSpore's kernel seeds its generator so).
                self._rng = host().seededStream(self.attrs["Seed0"] * 1000003 + self.attrs["Seed1"]).java
            else:
                seed = get_seed()
                self._rng = host().randomStream(-1 if seed is None else seed).java
        return self._run_engine(keep_prob, extra=("shape", list(shape), "rng", self._rng))
