"""``python -m lsp``: the language server over stdio."""

from lsp import main

main()
