"""Sphinx configuration of the fastaccept documentation site.

Build: ``pip install -e ".[docs]" && sphinx-build -W docs docs/_build``.
The API reference is read from the docstrings of the pure-Python engine,
the typed reference, whose signatures carry the type hints; the compiled
engine's docstrings are the same text (tests/test_protocols.py).
"""

from __future__ import annotations

import os

# Before fastaccept is first imported (by autodoc): the engine whose
# signatures are annotated.
os.environ["FASTACCEPT_NO_EXTENSIONS"] = "1"

project = "fastaccept"
author = "the fastaccept developers"
copyright = "2026, the fastaccept developers"

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autodoc_default_options = {"members": True, "undoc-members": False}

html_theme = "furo"
html_title = "fastaccept"
html_static_path = ["_static"]
# Tables and code blocks fit the column at 1280 px (tools/check_docs_width.py).
html_css_files = ["fastaccept.css"]
