# mindspore.dataset.vision Rescale/Normalize/HWC2CHW/Resize and transforms.TypeCast/OneHot applied
# with map to small images from a GeneratorDataset (no numpy); argument errors of each transform.
import mindspore as ms
import mindspore.dataset as ds
from mindspore.dataset import transforms, vision
from mindspore.dataset.vision import Inter
from _case_util import attempt, rounded


class Images:
    """Two 4x4 RGB images (uint8 after TypeCast) and a label."""

    def __getitem__(self, i):
        image = [[[(17 * (4 * r + c) + 40 * ch + 9 * i) % 256 for ch in range(3)] for c in range(4)] for r in range(4)]
        return image, i + 1

    def __len__(self):
        return 2


def source():
    data = ds.GeneratorDataset(Images(), ["image", "label"], shuffle=False)
    return data.map(transforms.TypeCast(ms.uint8), "image")


def show(label, data):
    print(f"-- {label}: cols={data.get_col_names()}")
    for image, lab in data.create_tuple_iterator():
        print(str(image.dtype), image.shape, rounded(image.tolist()), str(lab.dtype), lab.tolist())


show("source", source())
show("Rescale", source().map(vision.Rescale(1.0 / 255.0, -0.5), "image"))
show("Normalize hwc", source().map(vision.Normalize([10.0, 20.0, 30.0], [2.0, 4.0, 8.0]), "image"))
show("HWC2CHW", source().map(vision.HWC2CHW(), "image"))
show("Normalize chw", source().map([vision.HWC2CHW(), vision.Normalize([10.0, 20.0, 30.0], [2.0, 4.0, 8.0], is_hwc=False)],
                                   "image"))
show("Resize up", source().map(vision.Resize((8, 8)), "image").map(vision.HWC2CHW(), "image"))
show("Resize down", source().map(vision.Resize((2, 2), Inter.LINEAR), "image"))
show("Resize float", source().map([transforms.TypeCast(ms.float32), vision.Resize([6, 6])], "image"))
show("Resize shorter side", source().map([vision.Resize(2)], "image"))
show("OneHot", source().map(transforms.OneHot(3), "label").map(vision.Rescale(0.5, 0), "image"))
show("Rescale then TypeCast", source().map([vision.Rescale(2.0, 1.0), transforms.TypeCast(ms.int32)], "image"))

attempt("Rescale('a', 0)", lambda: vision.Rescale("a", 0))
attempt("Normalize length", lambda: vision.Normalize([1.0, 2.0], [1.0]))
attempt("Normalize mean 300", lambda: vision.Normalize([300.0], [1.0]))
attempt("Normalize std 0", lambda: vision.Normalize([1.0], [0.0]))
attempt("Normalize is_hwc 1", lambda: vision.Normalize([1.0], [1.0], is_hwc=1))
attempt("Resize 0", lambda: vision.Resize(0))
attempt("Resize (2, 0)", lambda: vision.Resize((2, 0)))
attempt("Resize 3 values", lambda: vision.Resize((1, 2, 3)))
