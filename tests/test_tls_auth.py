"""TLS, mutual TLS and bearer tokens over real connections, with certificates made for the test (tests/certs.py)."""

from __future__ import annotations

import ssl
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from certs import Authority, Issued
from click.testing import CliRunner
from grpc_health.v1 import health_pb2, health_pb2_grpc
from server_harness import QUIET, RPC_TIMEOUT, ServerThread

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc
from oracle.cli.main import main
from oracle.ruleset.loader import RuleBook, default_rule_book
from oracle.service.config import ConfigError, ServeConfig

TOKEN = "tls-and-token-0123456789"
REQUEST = oracle_pb2.ListRuleSetsRequest()
SHORT = 5.0  #: a refused handshake fails fast; this only bounds a hang


@dataclass(frozen=True)
class Pki:
    """A CA with a server and a client certificate, another CA's client certificate, and the files written."""

    ca: Authority
    server: Issued
    client: Issued
    stranger: Issued  #: a client certificate from a CA the server does not trust
    ca_file: Path
    cert_file: Path
    key_file: Path


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    directory = tmp_path_factory.mktemp("pki")
    ca = Authority("canasta-oracle test CA")
    server = ca.issue("canasta-oracle test server", server=True)
    ca_file = directory / "ca.crt"
    ca_file.write_bytes(ca.pem)
    cert_file, key_file = server.write(directory, "server")
    stranger = Authority("some other CA").issue("stranger", server=False)
    return Pki(ca, server, ca.issue("engine", server=False), stranger, ca_file, cert_file, key_file)


@pytest.fixture(scope="module")
def book() -> RuleBook:
    return default_rule_book()


@pytest.fixture
def started(book: RuleBook) -> Iterator[list[ServerThread]]:
    servers: list[ServerThread] = []
    try:
        yield servers
    finally:
        for running in servers:
            running.close(grace=0)


def _start(started: list[ServerThread], book: RuleBook, config: ServeConfig) -> str:
    running = ServerThread(book, config)
    started.append(running)
    return running.address


def _list(address: str, credentials: grpc.ChannelCredentials, metadata: tuple[tuple[str, str], ...] = ()) -> int:
    """ListRuleSets over a TLS channel: how many rule sets came back."""
    with grpc.secure_channel(address, credentials) as channel:
        stub = oracle_pb2_grpc.OracleServiceStub(channel)
        return len(stub.ListRuleSets(REQUEST, timeout=SHORT, metadata=metadata).rule_sets)


def _refused(address: str, credentials: grpc.ChannelCredentials | None) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        if credentials is None:
            with grpc.insecure_channel(address) as channel:
                oracle_pb2_grpc.OracleServiceStub(channel).ListRuleSets(REQUEST, timeout=SHORT)
        else:
            _list(address, credentials)
    return info.value


def test_tls_call_succeeds_with_the_ca_and_fails_without_it(pki: Pki, started, book: RuleBook) -> None:
    address = _start(started, book, ServeConfig(**_quiet(), tls_cert=pki.cert_file, tls_key=pki.key_file))
    assert _list(address, grpc.ssl_channel_credentials(root_certificates=pki.ca.pem)) > 0
    localhost = address.replace("127.0.0.1", "localhost")  # the certificate names both
    assert _list(localhost, grpc.ssl_channel_credentials(root_certificates=pki.ca.pem)) > 0

    for credentials in (grpc.ssl_channel_credentials(), None):  # the system's CAs only; plaintext
        error = _refused(address, credentials)
        assert error.code() == grpc.StatusCode.UNAVAILABLE, error
    other_ca = Authority("not the server's CA")
    assert _refused(address, grpc.ssl_channel_credentials(root_certificates=other_ca.pem)).code() == (
        grpc.StatusCode.UNAVAILABLE
    )


def test_mutual_tls_refuses_a_client_without_a_trusted_certificate(pki: Pki, started, book: RuleBook) -> None:
    config = ServeConfig(**_quiet(), tls_cert=pki.cert_file, tls_key=pki.key_file, tls_client_ca=pki.ca_file)
    address = _start(started, book, config)
    with_cert = grpc.ssl_channel_credentials(pki.ca.pem, pki.client.key, pki.client.cert)
    assert _list(address, with_cert) > 0

    without = grpc.ssl_channel_credentials(root_certificates=pki.ca.pem)
    assert _refused(address, without).code() == grpc.StatusCode.UNAVAILABLE
    stranger = grpc.ssl_channel_credentials(pki.ca.pem, pki.stranger.key, pki.stranger.cert)
    assert _refused(address, stranger).code() == grpc.StatusCode.UNAVAILABLE


def test_token_over_tls_and_health_without_it(pki: Pki, started, book: RuleBook) -> None:
    config = ServeConfig(**_quiet(), tls_cert=pki.cert_file, tls_key=pki.key_file, token=TOKEN)
    address = _start(started, book, config)
    credentials = grpc.ssl_channel_credentials(root_certificates=pki.ca.pem)
    assert _list(address, credentials, metadata=(("authorization", f"Bearer {TOKEN}"),)) > 0
    with pytest.raises(grpc.RpcError) as info:
        _list(address, credentials)
    assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
    with grpc.secure_channel(address, credentials) as channel:
        check = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=RPC_TIMEOUT)
    assert check.status == health_pb2.HealthCheckResponse.SERVING


def test_metrics_are_served_over_https_with_the_servers_certificate_and_need_a_client_certificate_under_mtls(
    pki: Pki, started, book: RuleBook, tmp_path: Path
) -> None:
    config = ServeConfig(
        **_quiet(), tls_cert=pki.cert_file, tls_key=pki.key_file, tls_client_ca=pki.ca_file, metrics_port=0
    )
    running = ServerThread(book, config)
    started.append(running)
    url = running.server.metrics_url
    assert url is not None and url.startswith("https://"), url
    client_cert, client_key = pki.client.write(tmp_path, "client")
    trusted = ssl.create_default_context(cafile=str(pki.ca_file))
    trusted.load_cert_chain(client_cert, client_key)
    with urllib.request.urlopen(url, timeout=SHORT, context=trusted) as answer:
        assert b"canasta_oracle_calls_in_flight" in answer.read()
    no_client_cert = ssl.create_default_context(cafile=str(pki.ca_file))
    with pytest.raises((urllib.error.URLError, ssl.SSLError, ConnectionError)):
        urllib.request.urlopen(url, timeout=SHORT, context=no_client_cert).read()
    with pytest.raises((urllib.error.URLError, ConnectionError)):
        urllib.request.urlopen(url.replace("https://", "http://"), timeout=SHORT).read()


def test_the_health_command_checks_a_mutual_tls_server_with_a_client_certificate(
    pki: Pki, started, book: RuleBook, tmp_path: Path
) -> None:
    config = ServeConfig(**_quiet(), tls_cert=pki.cert_file, tls_key=pki.key_file, tls_client_ca=pki.ca_file)
    address = _start(started, book, config)
    port = address.rsplit(":", 1)[1]
    cert, key = pki.client.write(tmp_path, "client")
    base = ["health", "--host", "127.0.0.1", "--port", port, "--tls-ca", str(pki.ca_file), "--timeout", "5"]
    runner = CliRunner()
    with_cert = runner.invoke(main, [*base, "--tls-cert", str(cert), "--tls-key", str(key)])
    assert with_cert.exit_code == 0 and with_cert.output.strip().endswith("SERVING"), with_cert.output
    renamed = runner.invoke(
        main, [*base, "--tls-cert", str(cert), "--tls-key", str(key), "--tls-server-name", "localhost"]
    )
    assert renamed.exit_code == 0, renamed.output  # the certificate names localhost too
    assert runner.invoke(main, base).exit_code == 1  # no client certificate: the handshake fails
    wrong_name = runner.invoke(
        main, [*base, "--tls-cert", str(cert), "--tls-key", str(key), "--tls-server-name", "not-the-server.test"]
    )
    assert wrong_name.exit_code == 1
    half = runner.invoke(main, [*base, "--tls-cert", str(cert)])
    assert half.exit_code == 2 and "--tls-cert and --tls-key go together" in half.output


@pytest.mark.parametrize(
    ("which", "says"),
    [
        ("tls_cert", "--tls-cert {path}: no PEM certificate in the file"),
        ("tls_key", "--tls-key {path}: no PEM private key in the file"),
        ("tls_client_ca", "--tls-client-ca {path}: no PEM CA certificate in the file"),
    ],
)
def test_a_file_that_is_not_pem_is_refused_naming_the_option(
    pki: Pki, book: RuleBook, tmp_path: Path, which: str, says: str
) -> None:
    wrong = tmp_path / "wrong.pem"
    wrong.write_text("this is not PEM\n", encoding="utf-8")
    files = {"tls_cert": pki.cert_file, "tls_key": pki.key_file, "tls_client_ca": pki.ca_file, which: wrong}
    with pytest.raises(ConfigError) as info:
        ServerThread(book, ServeConfig(**_quiet(), **files))
    assert says.format(path=wrong) in str(info.value)


def _quiet() -> dict[str, object]:
    return {"host": QUIET.host, "port": QUIET.port, "request_log": QUIET.request_log}
