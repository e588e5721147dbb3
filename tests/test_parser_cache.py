"""The parser cache: only in the user's own cache folder, never in a shared one."""

from __future__ import annotations

import os
import stat

from dsl.parser import _cache_file


def test_cache_lives_in_the_users_cache_folder_created_private(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    path = _cache_file("grammar text")
    assert path is not None and path.parent == tmp_path / "jibunki"
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    assert not str(path).startswith("/tmp/.lark")


def test_a_folder_others_can_write_is_never_used(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "jibunki").mkdir(mode=0o777)
    os.chmod(tmp_path / "jibunki", 0o777)
    assert _cache_file("grammar text") is None


def test_the_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("JIBUNKI_NO_CACHE", "1")
    assert _cache_file("grammar text") is None


def test_a_changed_grammar_gets_another_cache_file(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    assert _cache_file("one grammar") != _cache_file("another grammar")
