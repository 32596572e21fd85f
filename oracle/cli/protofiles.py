"""The `proto` verb: writes the API's .proto files (package data oracle.proto) for clients in any language."""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import click

from oracle.cli.support import CliError, clean_errors

API_DIR = ("oracle", "api", "v1")  #: where the .proto files sit under the proto root (their import paths)
BUF_FILE = "buf.yaml"  #: the buf module file, shipped beside them


def shipped_files() -> dict[str, bytes]:
    """Every shipped API file by its path under the proto root ('oracle/api/v1/cards.proto', 'buf.yaml')."""
    root = resources.files("oracle.proto")
    folder: Traversable = root
    for part in API_DIR:
        folder = folder / part
    files = {
        "/".join((*API_DIR, entry.name)): entry.read_bytes()
        for entry in folder.iterdir()
        if entry.name.endswith(".proto") and entry.is_file()
    }
    if not files:
        raise CliError("no .proto files in the installed package (oracle.proto): the installation is incomplete")
    files[BUF_FILE] = (root / BUF_FILE).read_bytes()
    return dict(sorted(files.items()))


@click.command("proto")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write the files under this directory (created if missing), keeping their import paths"
    " (DIR/oracle/api/v1/*.proto) and DIR/buf.yaml. Without it, list them.",
)
@click.option("--force", is_flag=True, help="Overwrite files in DIR that differ from the shipped ones.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"out": DIR or null, "files": [{"path", "bytes", "sha256", "written"}]} instead of a line per file.',
)
@clean_errors
def proto_command(out_dir: Path | None, force: bool, as_json: bool) -> None:
    """Write the API's .proto files (for generating a client in any language) into a directory, or list them.

    The files are the ones this version of the oracle serves: pass DIR as the
    include path to protoc (`-I DIR`), or run buf there. A file already in DIR
    with other contents is refused unless --force. Exit status: 0 written or
    listed, 2 error (a differing file without --force, --out naming a file).
    """
    files = shipped_files()
    written: dict[str, bool] = dict.fromkeys(files, False)
    if out_dir is not None:
        targets = {name: out_dir.joinpath(*name.split("/")) for name in files}
        differing = [str(path) for name, path in targets.items() if path.exists() and path.read_bytes() != files[name]]
        if differing and not force:
            raise CliError(
                "these files exist with other contents (use --force to overwrite):\n"
                + "\n".join(f"  {p}" for p in differing)
            )
        for name, path in targets.items():
            if path.exists() and path.read_bytes() == files[name]:
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(files[name])
            written[name] = True
    if as_json:
        answer = {
            "out": str(out_dir) if out_dir is not None else None,
            "files": [
                {"path": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(), "written": written[name]}
                for name, data in files.items()
            ],
        }
        click.echo(json.dumps(answer, indent=2))
        return
    for name in files:
        if out_dir is None:
            click.echo(name)
        else:
            click.echo(f"{'wrote' if written[name] else 'unchanged'} {out_dir.joinpath(*name.split('/'))}")
