#!/usr/bin/env python3
"""Writes the fuzzer's seed corpus and dictionary, read from the sources so they never go stale.

usage: fuzz_inputs.py SOURCE_DIR CORPUS_DIR DICT_FILE

Seeds: the built-in lessons, every script of the bad-script table (tests/lang/test_bad_scripts.cpp)
and the conformance scripts (tests/lang/conformance/*.gls) when present. Dictionary: the lexer's
keywords, operators, and every builtin name of the tracer's tables ("tf.reduce_sum" gives
"tf.reduce_sum" and "reduce_sum").
"""
import hashlib
import pathlib
import re
import sys


def c_string_literals(text):
    """The first string literal of each `{"...", "...", line, col}` row, C escapes decoded."""
    rows = re.findall(r'^\s*\{"((?:[^"\\]|\\.)*)",', text, re.M)
    return [bytes(r, "utf-8").decode("unicode_escape").encode("latin-1") for r in rows]


def seeds(src):
    for path in sorted((src / "resources" / "lessons").glob("*.gls")):
        yield path.read_bytes()
    yield from c_string_literals((src / "tests" / "lang" / "test_bad_scripts.cpp").read_text())
    for path in sorted((src / "tests" / "lang" / "conformance").glob("**/*.gls")):
        yield path.read_bytes()


def dictionary(src):
    lexer = (src / "engine" / "lang" / "lexer.cpp").read_text()
    words = set(re.findall(r'\{Tok::Kw\w+, "(\w+)"\}', lexer))
    words |= {"==", "!=", "<=", ">=", "**", "//", "+=", "-=", "*=", "@", "->", ":", "\n    ",
              "\t", "[", "]", "(", ")", ",", "=", "1e308", "-1", "0", "10**9", "1.0", "\"s\"",
              "with", "as", "variant(", "param ", " in 1..10", "tf.float64", "tf.int32",
              # Python as people write it: imports, f-strings, star arguments, del, assert.
              "import tensorflow as tf\n", "from tensorflow import keras\n", "import math\n",
              "import time\n", "import numpy as np\n", "from __future__ import ", "f\"", "f'",
              "rf'", "{x}", "{x!r}", "{x:.3f}", "{n:5d}", "{x:>10}", "{x:,}", "{{", "}}", "{x=}",
              "\"%d %.2f %s\" % ", ".format(", "*args", "**kwargs", "*,", "lambda i, *_: ",
              "del ", "assert ", "math.", "time.time()", "functools.partial(", "tf.__version__",
              # Classes (#26): `class` is lexed as a reserved word, so it is listed by hand.
              "class ", "class A:\n    ", "(object):", "self", "self.", "def __init__(self",
              "def __call__(self", "super()", "super().__init__(", "isinstance(", "@property\n",
              "@staticmethod\n", "@classmethod\n", "cls", "getattr(", "hasattr(", "setattr(",
              # try/except/finally and raise (#26): reserved words, listed by hand too.
              "try:\n    ", "except ", "except:\n    ", "except ValueError as e:\n    ",
              "finally:\n    ", "raise ", "raise\n", "raise ValueError(", " from ", "Exception",
              "TypeError", "RuntimeError", "AttributeError", "tf.errors.InvalidArgumentError",
              "import os\n", "os.environ[", "os.environ.get(",
              # tf.data (#26): pipelines as scripts chain them (methods are "Dataset.<name>").
              "tf.data.Dataset.", ".map(lambda x: ", ".batch(", "drop_remainder=True",
              ".shuffle(", "seed=", ".repeat()", ".take(", "for x, y in ds:\n    ",
              "element_spec", "tf.data.AUTOTUNE",
              # numpy (#26 item 5): its table keys are built in loops, so listed by hand.
              "numpy", "np.", "np", "from numpy import ", "np.array(", "np.asarray(", "np.zeros(",
              "np.ones(", "np.arange(", "np.linspace(", "np.eye(", "np.float32", "np.float64",
              "np.int32", "np.int64", "np.uint8", "np.bool_", "np.sum(", "np.mean(", "np.max(",
              "np.allclose(", "np.reshape(", "np.transpose(", "np.concatenate(", "np.stack(",
              "np.newaxis", "np.random.", "np.random.seed(", "np.random.rand(", "np.random.randn(",
              "np.random.randint(", "np.random.normal(", "np.random.uniform(",
              "np.random.random(", "np.random.shuffle(", "np.random.permutation(", ".numpy()",
              ".astype(", ".reshape(", ".T", ".shape", ".dtype", ".tolist()", ".item()",
              "size=(2, 3)", "axis=0", "keepdims=True",
              # tf.print's arguments.
              "tf.print(", "summarize=", "summarize=-1", "sep=", "end=''"}
    for path in (src / "engine" / "lang").glob("tracer_*.cpp"):
        for name in re.findall(r't\["((?:tf|keras|py|str|Dataset)\.[\w.]+)"\]', path.read_text()):
            name = name[3:] if name.startswith("py.") else name  # py.math.sqrt is math.sqrt
            words.add(name)
            words.add(name.split(".")[-1])
    return sorted(words)


def main():
    src, corpus, dict_file = map(pathlib.Path, sys.argv[1:4])
    corpus.mkdir(parents=True, exist_ok=True)
    count = 0
    for data in seeds(src):
        (corpus / hashlib.sha1(data).hexdigest()).write_bytes(data)
        count += 1
    words = dictionary(src)
    with open(dict_file, "w") as out:
        for w in words:
            out.write('"' + w.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\x0A")
                      .replace("\t", "\\x09") + '"\n')
    print(f"{count} seeds in {corpus}, {len(words)} dictionary words in {dict_file}")


if __name__ == "__main__":
    main()
