"""MindSpore 2.10's functional forms of the primitives in ``ops/operations/_elementary_ops.py``
(``ops.tan``, ``ops.bessel_i0``, ``ops.logical_and``, ``ops.prod``, ``ops.masked_fill``...), each one call
of its primitive (or, where MindSpore composes one, the same composition)."""
# pylint: disable=redefined-builtin
from mindspore.ops.operations import _elementary_ops as E

__all__ = ["silu", "tan", "sinh", "cosh", "atan", "atanh", "asin", "acos", "asinh", "acosh", "arctan", "arctanh", "arcsin",
           "arccos", "arcsinh", "arccosh", "erfinv", "inv", "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e",
           "bessel_j0", "bessel_j1", "mish", "selu", "hardsigmoid", "hardshrink", "softshrink", "elu", "atan2",
           "arctan2", "truncate_div", "truncate_mod", "xdivy", "xlogy", "mul_no_nan", "nextafter", "logical_and",
           "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "isclose", "fmod",
           "masked_fill", "prod", "addcmul", "prelu", "rms_norm", "triu", "tril", "fast_gelu", "tensor_scatter_update", "tensor_scatter_add",
           "tensor_scatter_sub", "tensor_scatter_mul", "tensor_scatter_div", "tensor_scatter_max", "tensor_scatter_min",
           "scatter_nd_update", "scatter_nd_add", "scatter_nd_sub", "dtype", "gather_elements", "gather_d",
           "flash_attention_score", "prompt_flash_attention", "incre_flash_attention",
           "fused_infer_attention_score"]


def tan(input):
    return E.Tan()(input)


def sinh(input):
    return E.Sinh()(input)


def cosh(input):
    return E.Cosh()(input)


def atan(input):
    return E.Atan()(input)


def atanh(input):
    return E.Atanh()(input)


def asin(input):
    return E.Asin()(input)


def acos(input):
    return E.ACos()(input)


def asinh(input):
    return E.Asinh()(input)


def acosh(input):
    return E.Acosh()(input)


arctan, arctanh, arcsin, arccos, arcsinh, arccosh = atan, atanh, asin, acos, asinh, acosh


def erfinv(input):
    return E.Erfinv()(input)


def inv(x):
    return E.Inv()(x)


def bessel_i0(x):
    return E.BesselI0()(x)


def bessel_i0e(x):
    return E.BesselI0e()(x)


def bessel_i1(x):
    return E.BesselI1()(x)


def bessel_i1e(x):
    return E.BesselI1e()(x)


def bessel_j0(x):
    return E.BesselJ0()(x)


def bessel_j1(x):
    return E.BesselJ1()(x)


def mish(x):
    return E.Mish()(x)


def selu(input_x):
    return E.SeLU()(input_x)


def hardsigmoid(input):
    return E.HSigmoid()(input)


def hardshrink(input, lambd=0.5):
    return E.HShrink(lambd)(input)


def softshrink(input, lambd=0.5):
    return E.SoftShrink(lambd)(input)


def elu(input_x, alpha=1.0):
    return E.Elu(alpha)(input_x)


def atan2(input, other):
    return E.Atan2()(input, other)


arctan2 = atan2


def truncate_div(x, y):
    return E.TruncateDiv()(x, y)


def truncate_mod(x, y):
    return E.TruncateMod()(x, y)


def xdivy(x, y):
    return E.Xdivy()(x, y)


def xlogy(input, other):
    return E.Xlogy()(input, other)


def mul_no_nan(x, y):
    return E.MulNoNan()(x, y)


def nextafter(input, other):
    return E.NextAfter()(input, other)


def logical_and(input, other):
    return E.LogicalAnd()(input, other)


def logical_or(input, other):
    return E.LogicalOr()(input, other)


def logical_xor(input, other):
    """True where exactly one of the two is true (non-zero), as bool."""
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    from mindspore.ops.operations import Cast, NotEqual  # pylint: disable=import-outside-toplevel
    return NotEqual()(Cast()(input, mstype.bool_), Cast()(other, mstype.bool_))


def bitwise_and(input, other):
    return E.BitwiseAnd()(input, other)


def bitwise_or(input, other):
    return E.BitwiseOr()(input, other)


def bitwise_xor(input, other):
    return E.BitwiseXor()(input, other)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return E.IsClose(rtol, atol, equal_nan)(input, other)


def fmod(input, other):
    """The remainder with the dividend's sign: ``input - div(input, other, "trunc") * other`` (MindSpore's
    composition for tensors)."""
    from mindspore.ops.function import div  # pylint: disable=import-outside-toplevel
    return input - div(input, other, rounding_mode="trunc") * other


def masked_fill(input_x, mask, value):
    return E.MaskedFill()(input_x, mask, value)


def prod(input, axis=None, keep_dims=False, dtype=None):
    from mindspore.ops.operations import Cast  # pylint: disable=import-outside-toplevel
    if dtype is not None:
        input = Cast()(input, dtype)
    return E.ReduceProd(keep_dims)(input, () if axis is None else axis)


def addcmul(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 * tensor2``."""
    from mindspore.ops.operations import Mul  # pylint: disable=import-outside-toplevel
    return input + Mul()(value, Mul()(tensor1, tensor2))


def prelu(input, weight):
    return E.PReLU()(input, weight)


def rms_norm(x, gamma, epsilon=1e-6):
    return E.RmsNorm(epsilon)(x, gamma)


def triu(input, diagonal=0):
    return E.Triu(diagonal)(input)


def tril(input, diagonal=0):
    return E.Tril(diagonal)(input)


def fast_gelu(x):
    return E.FastGeLU()(x)


def silu(input):  # pylint: disable=redefined-builtin
    """``input * sigmoid(input)``."""
    from mindspore.ops.operations._inner_ops import SiLU  # pylint: disable=import-outside-toplevel
    return SiLU()(input)


def tensor_scatter_update(input_x, indices, updates):
    return E.TensorScatterUpdate()(input_x, indices, updates)


def tensor_scatter_add(input_x, indices, updates):
    return E.TensorScatterAdd()(input_x, indices, updates)


def tensor_scatter_sub(input_x, indices, updates):
    return E.TensorScatterSub()(input_x, indices, updates)


def tensor_scatter_mul(input_x, indices, updates):
    return E.TensorScatterMul()(input_x, indices, updates)


def tensor_scatter_div(input_x, indices, updates):
    return E.TensorScatterDiv()(input_x, indices, updates)


def tensor_scatter_max(input_x, indices, updates):
    return E.TensorScatterMax()(input_x, indices, updates)


def tensor_scatter_min(input_x, indices, updates):
    return E.TensorScatterMin()(input_x, indices, updates)


def scatter_nd_update(input_x, indices, updates, use_locking=False):
    return E.ScatterNdUpdate(use_locking)(input_x, indices, updates)


def scatter_nd_add(input_x, indices, updates, use_locking=False):
    return E.ScatterNdAdd(use_locking)(input_x, indices, updates)


def scatter_nd_sub(input_x, indices, updates, use_locking=False):
    return E.ScatterNdSub(use_locking)(input_x, indices, updates)


def dtype(input):
    """The ``mindspore.dtype`` of ``input`` (``F.dtype``)."""
    return input.dtype


def gather_elements(input, dim, index):
    return E.GatherD()(input, dim, index)


gather_d = gather_elements


def flash_attention_score(query, key, value, head_num, real_shift=None, drop_mask=None, padding_mask=None,
                          attn_mask=None, prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None, keep_prob=1.0,
                          scalar_value=1.0, pre_tokens=2147483647, next_tokens=2147483647, inner_precise=0,
                          input_layout="BSH", sparse_mode=0):
    """attention_out of FlashAttentionScore (MindSpore spells the scale ``scalar_value`` here)."""
    from mindspore.ops.operations._attention_ops import FlashAttentionScore  # pylint: disable=import-outside-toplevel
    op = FlashAttentionScore(head_num, keep_prob, scalar_value, pre_tokens, next_tokens, inner_precise,
                             input_layout, sparse_mode)
    return op(query, key, value, real_shift, drop_mask, padding_mask, attn_mask, prefix, actual_seq_qlen,
              actual_seq_kvlen)[3]


def prompt_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None, actual_seq_lengths_kv=None,
                           pse_shift=None, deq_scale1=None, quant_scale1=None, deq_scale2=None, quant_scale2=None,
                           quant_offset2=None, num_heads=1, scale_value=1.0, pre_tokens=2147483647, next_tokens=0,
                           input_layout='BSH', num_key_value_heads=0, sparse_mode=0, inner_precise=1):
    """PromptFlashAttention's attention_out (full inference)."""
    from mindspore.ops.operations._attention_ops import PromptFlashAttention  # pylint: disable=import-outside-toplevel
    op = PromptFlashAttention(num_heads, scale_value, pre_tokens, next_tokens, input_layout, num_key_value_heads,
                              sparse_mode, inner_precise)
    return op(query, key, value, attn_mask, actual_seq_lengths, actual_seq_lengths_kv, pse_shift, deq_scale1,
              quant_scale1, deq_scale2, quant_scale2, quant_offset2)


def incre_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None, pse_shift=None,
                          dequant_scale1=None, quant_scale1=None, dequant_scale2=None, quant_scale2=None,
                          quant_offset2=None, antiquant_scale=None, antiquant_offset=None, block_table=None,
                          num_heads=1, input_layout='BSH', scale_value=1.0, num_key_value_heads=0,
                          block_size=0, inner_precise=1, kv_padding_size=None):
    """IncreFlashAttention's attention_out (incremental inference)."""
    from mindspore.ops.operations._attention_ops import IncreFlashAttention  # pylint: disable=import-outside-toplevel
    op = IncreFlashAttention(num_heads, input_layout, scale_value, num_key_value_heads, block_size, inner_precise)
    return op(query, key, value, attn_mask, actual_seq_lengths, pse_shift, dequant_scale1, quant_scale1,
              dequant_scale2, quant_scale2, quant_offset2, antiquant_scale, antiquant_offset, block_table,
              kv_padding_size)


def fused_infer_attention_score(query, key, value, *, pse_shift=None, atten_mask=None, actual_seq_lengths=None,
                                actual_seq_lengths_kv=None, dequant_scale1=None, quant_scale1=None,
                                dequant_scale2=None, quant_scale2=None, quant_offset2=None, antiquant_scale=None,
                                antiquant_offset=None, key_antiquant_scale=None, key_antiquant_offset=None,
                                value_antiquant_scale=None, value_antiquant_offset=None, block_table=None,
                                query_padding_size=None, kv_padding_size=None, key_shared_prefix=None,
                                value_shared_prefix=None, actual_shared_prefix_len=None, num_heads=1, scale=1.0,
                                pre_tokens=2147483647, next_tokens=2147483647, input_layout='BSH',
                                num_key_value_heads=0, sparse_mode=0, inner_precise=1, block_size=0,
                                antiquant_mode=0, key_antiquant_mode=0, value_antiquant_mode=0,
                                softmax_lse_flag=False):
    """FusedInferAttentionScore's (attention_out, softmax_lse)."""
    from mindspore.ops.operations._attention_ops import FusedInferAttentionScore  # pylint: disable=import-outside-toplevel
    op = FusedInferAttentionScore(num_heads, scale, pre_tokens, next_tokens, input_layout, num_key_value_heads,
                                  sparse_mode, inner_precise, block_size, antiquant_mode, softmax_lse_flag,
                                  key_antiquant_mode, value_antiquant_mode)
    return op(query, key, value, pse_shift, atten_mask, actual_seq_lengths, actual_seq_lengths_kv, dequant_scale1,
              quant_scale1, dequant_scale2, quant_scale2, quant_offset2, antiquant_scale, antiquant_offset,
              block_table, query_padding_size, kv_padding_size, key_antiquant_scale, key_antiquant_offset,
              value_antiquant_scale, value_antiquant_offset, key_shared_prefix, value_shared_prefix,
              actual_shared_prefix_len)
