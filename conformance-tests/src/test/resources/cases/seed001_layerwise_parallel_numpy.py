# Seed 001 (r1.2 programming guide), snippet "layerwise_parallel" (uses numpy). The seed text has the
# typo "imoprt numpy as np" (a SyntaxError as printed); this case uses the corrected import.
import numpy as np
from mindspore import Parameter, Tensor

x = Parameter(Tensor(np.ones([2, 2])), layerwise_parallel=True)
print(x.name.startswith("Parameter"), x.layerwise_parallel, x.shape, x.dtype)
y = Parameter(Tensor(np.ones([2, 2])), name="y")
print(y.name, y.layerwise_parallel)
