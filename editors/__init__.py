"""Editor support of the content language: the VS Code extension (vscode/) and the script
that writes its TextMate grammar (build.py)."""
