"""FlashAttentionScore (MindSpore 2.10's fused attention, generated there from its op yaml),
DropoutGenMask, which makes the dropout bits FlashAttentionScore reads when ``keep_prob < 1``, and the
inference attention PromptFlashAttention, IncreFlashAttention, FusedInferAttentionScore and the
paged-cache PagedAttention and PagedAttentionMask.

The engine computes the attention exactly (``FlashAttention`` in the engine: no tiling, double
precision inside, the query's type out), so it runs on the CPU here; MindSpore's kernel exists for
Atlas A2 only. Optional inputs a call leaves None are not the engine node's inputs: the node has
query, key, value and then the present ones in MindSpore's order, as MindSpore's in_strategy lists
them (FlashAttentionScoreInfo counts only the inputs passed)."""
from mindspore.ops.primitive import Primitive
from mindspore.ops.operations._nn_ops import _tensor_cls, _type_name

__all__ = ["FlashAttentionScore", "DropoutGenMask", "PromptFlashAttention", "FusedInferAttentionScore",
           "IncreFlashAttention", "PagedAttention", "PagedAttentionMask"]

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


def _lengths(name, value, op="FlashAttentionScore"):
    """Sequence lengths as an int64 tensor (MindSpore takes a tuple, list or tensor)."""
    tensor = _tensor_cls()
    if isinstance(value, tensor):
        return value
    if isinstance(value, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        return tensor(list(value), mstype.int64)
    raise TypeError(f"For '{op}', the input '{name}' must be a tuple of int, a list of int or a "
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


def _check_ints(op, **values):
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"For '{op}', the type of '{name}' should be int, but got {type(value).__name__}.")


def _check_float(op, name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{op}', the type of '{name}' should be float, but got {type(value).__name__}.")


def _infer_inputs(op, names, values, lengths=("actual_seq_lengths", "actual_seq_lengths_kv")):
    """The inputs an inference attention call passes (None ones are not the engine node's) and the
    ``present`` attribute naming them; tuple/list lengths become int64 tensors as MindSpore casts them."""
    tensor = _tensor_cls()
    inputs = []
    present = []
    for name, x in zip(names, values):
        if x is None:
            continue
        if name in lengths and not isinstance(x, tensor):
            x = _lengths(name, x, op)
        elif not isinstance(x, tensor):
            raise TypeError(f"For '{op}', the input '{name}' must be a Tensor or None, but got {_type_name(x)}.")
        inputs.append(x)
        present.append(name)
    return inputs, ",".join(present)


class PromptFlashAttention(Primitive):
    """``attention_out = PromptFlashAttention(num_heads, ...)(query, key, value, attn_mask,
    actual_seq_lengths, actual_seq_lengths_kv, pse_shift, deq_scale1, quant_scale1, deq_scale2,
    quant_scale2, quant_offset2)``: ``Softmax(Mask(scale_value * query key^T + pse_shift)) value`` over whole
    prompts (MindSpore's full-inference attention; no gradient)."""

    _OPTIONAL = ("attn_mask", "actual_seq_lengths", "actual_seq_lengths_kv", "pse_shift", "deq_scale1",
                 "quant_scale1", "deq_scale2", "quant_scale2", "quant_offset2")

    def __init__(self, num_heads=1, scale_value=1.0, pre_tokens=2147483647, next_tokens=0, input_layout="BSH",
                 num_key_value_heads=0, sparse_mode=0, inner_precise=1):
        super().__init__("PromptFlashAttention")
        _check_ints("PromptFlashAttention", num_heads=num_heads, pre_tokens=pre_tokens, next_tokens=next_tokens,
                    num_key_value_heads=num_key_value_heads, sparse_mode=sparse_mode, inner_precise=inner_precise)
        _check_float("PromptFlashAttention", "scale_value", scale_value)
        if not isinstance(input_layout, str):
            raise TypeError(f"For 'PromptFlashAttention', the type of 'input_layout' should be str, "
                            f"but got {type(input_layout).__name__}.")
        if input_layout not in ("BSH", "BNSD"):
            raise ValueError(f"For 'PromptFlashAttention', the input_layout must be BSH or BNSD, "
                             f"but got {input_layout}.")
        for name, value in (("num_heads", num_heads), ("scale_value", float(scale_value)),
                            ("pre_tokens", pre_tokens), ("next_tokens", next_tokens),
                            ("input_layout", input_layout), ("num_key_value_heads", num_key_value_heads),
                            ("sparse_mode", sparse_mode), ("inner_precise", inner_precise)):
            self.add_prim_attr(name, value)

    def __call__(self, query, key, value, attn_mask=None, actual_seq_lengths=None, actual_seq_lengths_kv=None,
                 pse_shift=None, deq_scale1=None, quant_scale1=None, deq_scale2=None, quant_scale2=None,
                 quant_offset2=None):
        tensor = _tensor_cls()
        for name, x in (("query", query), ("key", key), ("value", value)):
            if not isinstance(x, tensor):
                raise TypeError(f"For 'PromptFlashAttention', the input '{name}' must be a Tensor, "
                                f"but got {_type_name(x)}.")
        optional, present = _infer_inputs(
            "PromptFlashAttention", self._OPTIONAL,
            (attn_mask, actual_seq_lengths, actual_seq_lengths_kv, pse_shift, deq_scale1, quant_scale1, deq_scale2,
             quant_scale2, quant_offset2))
        return self._run_engine(query, key, value, *optional, extra=("present", present))


class FusedInferAttentionScore(Primitive):
    """``attention_out, softmax_lse = FusedInferAttentionScore(num_heads, ...)(query, key, value, pse_shift,
    attn_mask, actual_seq_lengths, actual_seq_lengths_kv, ...)``: PromptFlashAttention's attention for
    prompts, IncreFlashAttention's when the query has one row per sequence; softmax_lse (with
    ``softmax_lse_flag``) is each row's ``log(sum(exp(scores)))``, float32 ``(B, N, Q_S, 1)``.

    ``key`` and ``value`` may be lists of tensors (one per batch group, as MindSpore's TensorList): they
    are joined along the batch. Layout ``BNSD_BSND`` computes in BNSD and returns BSND."""

    _OPTIONAL = ("pse_shift", "attn_mask", "actual_seq_lengths", "actual_seq_lengths_kv", "dequant_scale1",
                 "quant_scale1", "dequant_scale2", "quant_scale2", "quant_offset2", "antiquant_scale",
                 "antiquant_offset", "block_table", "query_padding_size", "kv_padding_size", "key_antiquant_scale",
                 "key_antiquant_offset", "value_antiquant_scale", "value_antiquant_offset", "key_shared_prefix",
                 "value_shared_prefix", "actual_shared_prefix_len")

    def __init__(self, num_heads=1, scale_value=1.0, pre_tokens=2147483647, next_tokens=2147483647,
                 input_layout="BSH", num_key_value_heads=0, sparse_mode=0, inner_precise=1, block_size=0,
                 antiquant_mode=0, softmax_lse_flag=False, key_antiquant_mode=0, value_antiquant_mode=0):
        super().__init__("FusedInferAttentionScore")
        _check_ints("FusedInferAttentionScore", num_heads=num_heads, pre_tokens=pre_tokens,
                    next_tokens=next_tokens, num_key_value_heads=num_key_value_heads, sparse_mode=sparse_mode,
                    inner_precise=inner_precise, block_size=block_size, antiquant_mode=antiquant_mode,
                    key_antiquant_mode=key_antiquant_mode, value_antiquant_mode=value_antiquant_mode)
        _check_float("FusedInferAttentionScore", "scale_value", scale_value)
        if not isinstance(softmax_lse_flag, bool):
            raise TypeError(f"For 'FusedInferAttentionScore', the type of 'softmax_lse_flag' should be bool, "
                            f"but got {type(softmax_lse_flag).__name__}.")
        if input_layout not in ("BSH", "BNSD", "BSND", "BNSD_BSND"):
            raise RuntimeError("For FusedInferAttentionScore, the input_layout should be one of 'BSH' 'BSND' "
                               "'BNSD' 'BNSD_BSND'.")
        for name, value in (("num_heads", num_heads), ("scale_value", float(scale_value)),
                            ("pre_tokens", pre_tokens), ("next_tokens", next_tokens), ("input_layout", input_layout),
                            ("num_key_value_heads", num_key_value_heads), ("sparse_mode", sparse_mode),
                            ("inner_precise", inner_precise), ("block_size", block_size),
                            ("antiquant_mode", antiquant_mode), ("softmax_lse_flag", softmax_lse_flag),
                            ("key_antiquant_mode", key_antiquant_mode),
                            ("value_antiquant_mode", value_antiquant_mode)):
            self.add_prim_attr(name, value)

    def __call__(self, query, key, value, pse_shift=None, attn_mask=None, actual_seq_lengths=None,
                 actual_seq_lengths_kv=None, dequant_scale1=None, quant_scale1=None, dequant_scale2=None,
                 quant_scale2=None, quant_offset2=None, antiquant_scale=None, antiquant_offset=None,
                 block_table=None, query_padding_size=None, kv_padding_size=None, key_antiquant_scale=None,
                 key_antiquant_offset=None, value_antiquant_scale=None, value_antiquant_offset=None,
                 key_shared_prefix=None, value_shared_prefix=None, actual_shared_prefix_len=None):
        tensor = _tensor_cls()
        if not isinstance(query, tensor):
            raise TypeError(f"For 'FusedInferAttentionScore', the input 'query' must be a Tensor, "
                            f"but got {_type_name(query)}.")
        key = _joined("key", key)
        value = _joined("value", value)
        optional, present = _infer_inputs(
            "FusedInferAttentionScore", self._OPTIONAL,
            (pse_shift, attn_mask, actual_seq_lengths, actual_seq_lengths_kv, dequant_scale1, quant_scale1,
             dequant_scale2, quant_scale2, quant_offset2, antiquant_scale, antiquant_offset, block_table,
             query_padding_size, kv_padding_size, key_antiquant_scale, key_antiquant_offset, value_antiquant_scale,
             value_antiquant_offset, key_shared_prefix, value_shared_prefix, actual_shared_prefix_len),
            lengths=("actual_seq_lengths", "actual_seq_lengths_kv", "actual_shared_prefix_len"))
        extra = ["present", present]
        layout = self.attrs["input_layout"]
        if layout == "BNSD_BSND":
            extra.extend(("input_layout", "BNSD"))
        out, lse = _run_listed(self, (query, key, value, *optional), present, extra, True)
        if layout == "BNSD_BSND":
            from mindspore.ops.operations import Transpose  # pylint: disable=import-outside-toplevel
            out = Transpose()(out, (0, 2, 1, 3))
        return out, lse


def _run_listed(prim, inputs, present, extra, all_outputs):
    """Runs ``prim`` whose key and value may have come as lists: their strategies (a tuple per tensor of
    the list, all alike) become one for the node (the innermost call attributes win; the engine derives
    the optional inputs' strategies from the query's, as MindSpore does)."""
    strategy = prim.attrs.get("in_strategy")
    if not strategy:
        return prim._run_engine(*inputs, all_outputs=all_outputs, extra=tuple(extra))  # pylint: disable=protected-access
    flat = []
    names = ["query", "key", "value"] + (present.split(",") if present else [])
    for name, element in zip(names, strategy):
        if element and isinstance(element[0], tuple):
            if any(e != element[0] for e in element):
                raise RuntimeError(f"For {prim.name}, the strategies of the tensors of '{name}' must be the same, "
                                   f"but got {element}.")
            element = element[0]
        flat.append(tuple(element))
    flat = tuple(flat) + tuple(strategy[len(names):])
    from mindspore._host import host  # pylint: disable=import-outside-toplevel
    h = host()
    h.pushCallAttrs([prim.name], ["in_strategy", flat])
    try:
        return prim._run_engine(*inputs, all_outputs=all_outputs, extra=tuple(extra))  # pylint: disable=protected-access
    finally:
        h.popCallAttrs()


def _joined(name, x, op="FusedInferAttentionScore"):
    """A key/value tensor, or a list of them joined along the batch (IncreFlashAttention: exactly one)."""
    tensor = _tensor_cls()
    if isinstance(x, tensor):
        return x
    if isinstance(x, (list, tuple)) and x and all(isinstance(t, tensor) for t in x):
        if len(x) == 1:
            return x[0]
        if op == "IncreFlashAttention":
            raise RuntimeError(f"IncreFlashAttention: parameter {name} should be a sequence containing exactly "
                               f"1 tensor. ")
        if any(t.shape[1:] != x[0].shape[1:] for t in x):
            raise NotImplementedError(f"{op} with '{name}' tensors of different sequence lengths is not supported "
                                      f"yet.")
        from mindspore.ops.operations import Concat  # pylint: disable=import-outside-toplevel
        return Concat(0)(tuple(x))
    raise TypeError(f"For '{op}', the input '{name}' must be a Tensor or a list of Tensor, "
                    f"but got {_type_name(x)}.")


class IncreFlashAttention(Primitive):
    """``attention_out = IncreFlashAttention(num_heads, ...)(query, key, value, attn_mask, actual_seq_lengths,
    pse_shift, ...)``: one new token per sequence (query ``(B, 1, H)`` or ``(B, N, 1, D)``) against its
    key/value cache, ``Softmax(Mask(scale_value * query key^T + pse_shift)) value``; ``actual_seq_lengths``
    (one or B values) bounds the cache each sequence sees."""

    # The engine's names: this op's actual_seq_lengths are the key/value lengths.
    _OPTIONAL = ("attn_mask", "actual_seq_lengths_kv", "pse_shift", "dequant_scale1", "quant_scale1",
                 "dequant_scale2", "quant_scale2", "quant_offset2", "antiquant_scale", "antiquant_offset",
                 "block_table", "kv_padding_size")

    def __init__(self, num_heads=1, input_layout="BSH", scale_value=1.0, num_key_value_heads=0, block_size=0,
                 inner_precise=1):
        super().__init__("IncreFlashAttention")
        _check_ints("IncreFlashAttention", num_heads=num_heads, num_key_value_heads=num_key_value_heads,
                    block_size=block_size, inner_precise=inner_precise)
        _check_float("IncreFlashAttention", "scale_value", scale_value)
        if input_layout not in ("BSH", "BNSD", "BSND"):
            raise ValueError(f"For 'IncreFlashAttention', the input_layout must be BSH, BNSD or BSND, "
                             f"but got {input_layout}.")
        for name, value in (("num_heads", num_heads), ("input_layout", input_layout),
                            ("scale_value", float(scale_value)), ("num_key_value_heads", num_key_value_heads),
                            ("block_size", block_size), ("inner_precise", inner_precise)):
            self.add_prim_attr(name, value)

    def __call__(self, query, key, value, attn_mask=None, actual_seq_lengths=None, pse_shift=None,
                 dequant_scale1=None, quant_scale1=None, dequant_scale2=None, quant_scale2=None, quant_offset2=None,
                 antiquant_scale=None, antiquant_offset=None, block_table=None, kv_padding_size=None):
        tensor = _tensor_cls()
        if not isinstance(query, tensor):
            raise TypeError(f"For 'IncreFlashAttention', the input 'query' must be a Tensor, "
                            f"but got {_type_name(query)}.")
        key = _joined("key", key, "IncreFlashAttention")
        value = _joined("value", value, "IncreFlashAttention")
        optional, present = _infer_inputs(
            "IncreFlashAttention", self._OPTIONAL,
            (attn_mask, actual_seq_lengths, pse_shift, dequant_scale1, quant_scale1, dequant_scale2, quant_scale2,
             quant_offset2, antiquant_scale, antiquant_offset, block_table, kv_padding_size),
            lengths=("actual_seq_lengths_kv",))
        return _run_listed(self, (query, key, value, *optional), present, ["present", present], False)


class PagedAttention(Primitive):
    """``attention_out = PagedAttention(head_num, scale_value, kv_head_num)(query, key_cache, value_cache,
    block_tables, context_lens, ...)``: each query token's attention over its context, read from a
    block-wise cache (position p of token t is slot ``p % block_size`` of block ``block_tables[t, p //
    block_size]``), ``context_lens[t]`` positions long."""

    _OPTIONAL = ("antiquant_scale", "antiquant_offset", "attn_mask", "q_seq_lens", "alibi_mask")

    def __init__(self, head_num, scale_value, kv_head_num, kv_cache_quant_mode="DEFAULT", mask_mode="MASK_DEFAULT",
                 mla_v_dim=0):
        super().__init__(type(self).__name__)
        _check_ints(self.name, head_num=head_num, kv_head_num=kv_head_num, mla_v_dim=mla_v_dim)
        _check_float(self.name, "scale_value", scale_value)
        if kv_cache_quant_mode not in ("DEFAULT", "PERTOKEN"):
            raise ValueError(f"For '{self.name}', kv_cache_quant_mode must be DEFAULT or PERTOKEN, "
                             f"but got {kv_cache_quant_mode}.")
        if mask_mode not in ("MASK_DEFAULT", "TRAPEZOIDAL"):
            raise ValueError(f"For '{self.name}', mask_mode must be MASK_DEFAULT or TRAPEZOIDAL, but got {mask_mode}.")
        for name, value in (("head_num", head_num), ("scale_value", float(scale_value)), ("kv_head_num", kv_head_num),
                            ("kv_cache_quant_mode", kv_cache_quant_mode), ("mask_mode", mask_mode),
                            ("mla_v_dim", mla_v_dim)):
            self.add_prim_attr(name, value)

    def __call__(self, query, key_cache, value_cache=None, block_tables=None, context_lens=None, antiquant_scale=None,
                 antiquant_offset=None, attn_mask=None, q_seq_lens=None, alibi_mask=None):
        return self._paged(query, key_cache, value_cache, block_tables, context_lens,
                           (antiquant_scale, antiquant_offset, attn_mask, q_seq_lens, alibi_mask))

    def _paged(self, query, key_cache, value_cache, block_tables, context_lens, optional):
        tensor = _tensor_cls()
        for name, x in (("query", query), ("key_cache", key_cache), ("value_cache", value_cache),
                        ("block_tables", block_tables), ("context_lens", context_lens)):
            if not isinstance(x, tensor):
                raise TypeError(f"For '{self.name}', the input '{name}' must be a Tensor, but got {_type_name(x)}.")
        if self.attrs["mask_mode"] != "MASK_DEFAULT" or self.attrs["mla_v_dim"]:
            raise NotImplementedError(f"{self.name} with mask_mode {self.attrs['mask_mode']} or mla_v_dim "
                                      f"{self.attrs['mla_v_dim']} is not supported yet.")
        rest, present = _infer_inputs(self.name, self._OPTIONAL, optional, lengths=())
        return self._run_engine(query, key_cache, value_cache, block_tables, context_lens, *rest,
                                extra=("present", present))


class PagedAttentionMask(PagedAttention):
    """PagedAttention with an alibi mask input (MindSpore's PagedAttentionMask)."""

    _OPTIONAL = ("antiquant_scale", "antiquant_offset", "alibi_mask")

    def __init__(self, head_num, scale_value, kv_head_num, kv_cache_quant_mode="DEFAULT"):
        super().__init__(head_num, scale_value, kv_head_num, kv_cache_quant_mode)

    def __call__(self, query, key_cache, value_cache, block_tables, context_lens, antiquant_scale=None,
                 antiquant_offset=None, alibi_mask=None):
        return self._paged(query, key_cache, value_cache, block_tables, context_lens,
                           (antiquant_scale, antiquant_offset, alibi_mask))
