# Shape errors of Tensor operators name the primitive MindSpore 2.10 runs for each operator.
import mindspore as ms
from mindspore import Tensor
from _case_util import show

a = Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
b = Tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])
for name, fn in [("+", lambda: a + b), ("-", lambda: a - b), ("*", lambda: a * b), ("/", lambda: a / b),
                 ("//", lambda: a // b), ("%", lambda: a % b), ("**", lambda: a ** b), ("<", lambda: a < b),
                 ("==", lambda: a == b), ("!=", lambda: a != b), (">=", lambda: a >= b)]:
    try:
        text = str(fn())  # MindSpore runs ops lazily: the error may surface only when printed
        print(name, text)
    except Exception as e:  # pylint: disable=broad-except
        print(name, end=" ")
        show(e)
print((Tensor([[1.0], [2.0]]) + Tensor([10.0, 20.0, 30.0])).shape)
