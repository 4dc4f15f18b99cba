# os.rename / os.replace / Path.rename when the target is a directory: a directory replaces an
# empty one, onto a non-empty one it is ENOTEMPTY, a file onto a directory EISDIR (pytest's cache
# relies on the ENOTEMPTY when msrun's ranks race to create .pytest_cache).
import os
import pathlib
import shutil
import tempfile

root = tempfile.mkdtemp()
os.chdir(root)


def fresh():
    for name in os.listdir("."):
        shutil.rmtree(name) if os.path.isdir(name) else os.remove(name)
    os.makedirs("full")
    open("full/kept", "w").close()
    os.makedirs("empty")
    os.makedirs("moving")
    open("moving/inside", "w").close()
    open("file", "w").close()


cases = [
    ("os.rename dir onto empty dir", lambda: os.rename("moving", "empty")),
    ("os.replace dir onto empty dir", lambda: os.replace("moving", "empty")),
    ("os.rename dir onto non-empty dir", lambda: os.rename("moving", "full")),
    ("Path.rename dir onto non-empty dir", lambda: pathlib.Path("moving").rename("full")),
    ("os.replace file onto dir", lambda: os.replace("file", "empty")),
    ("os.rename dir onto file", lambda: os.rename("moving", "file")),
    ("os.rename dir onto itself", lambda: os.rename("moving", "moving")),
    ("shutil.move dir into dir", lambda: shutil.move("moving", "full")),
]
for name, move in cases:
    fresh()
    try:
        move()
        print(name, "-> ok:", sorted(os.listdir(".")), sorted(os.listdir("empty")) if os.path.isdir("empty") else "")
    except OSError as e:
        print(name, "->", type(e).__name__, e.errno, e.strerror, repr(e.filename), repr(e.filename2))
os.chdir("/")
shutil.rmtree(root)
