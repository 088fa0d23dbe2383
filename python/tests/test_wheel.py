"""The wheel: the tests run against the installed wheel, which installs and imports without
a Rust toolchain.

`.ci/test` builds the wheel with `maturin build --release` and sets HTML_ARENA_WHEEL to it;
without that variable (a source install, `pip install ./python`) there is no wheel to check.
"""

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import html_arena

WHEEL = os.environ.get("HTML_ARENA_WHEEL")
needs_wheel = pytest.mark.skipif(not WHEEL, reason="HTML_ARENA_WHEEL is not set (no wheel built)")


@needs_wheel
def test_wheel_is_abi3_for_cpython_39_and_later():
    name = Path(WHEEL).name
    assert "-cp39-abi3-" in name, name


@needs_wheel
def test_tests_run_against_the_installed_wheel():
    installed = Path(html_arena.__file__).resolve()
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    assert site in installed.parents, installed
    assert any(p.name.startswith("_html_arena") for p in installed.parent.iterdir())


@needs_wheel
def test_wheel_installs_without_a_rust_toolchain(tmp_path):
    # PATH without cargo, rustc or rustup, then a fresh virtualenv that installs only the
    # wheel (no index, no build).
    keep = [
        d
        for d in os.environ.get("PATH", "").split(os.pathsep)
        if d and not any((Path(d) / tool).exists() for tool in ("cargo", "rustc", "rustup"))
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARGO", "RUSTUP"))}
    env["PATH"] = os.pathsep.join(keep)
    env.pop("PYTHONPATH", None)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
    python = venv / "bin" / "python"
    no_cargo = subprocess.run(["sh", "-c", "command -v cargo || command -v rustc"], env=env, capture_output=True)
    assert no_cargo.returncode != 0, no_cargo.stdout
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", str(Path(WHEEL).resolve())],
        check=True,
        env=env,
        cwd=tmp_path,
    )
    out = subprocess.run(
        [str(python), "-c", "import html_arena; print(html_arena.parse('<p>ok').select_one('p').text())"],
        check=True,
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert out.stdout.strip() == "ok"
