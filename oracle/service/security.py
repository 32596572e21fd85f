"""Who may call: TLS and mutual-TLS server credentials from PEM files, and the bearer-token check (health exempt)."""

from __future__ import annotations

import hmac
from collections.abc import Awaitable
from pathlib import Path

import grpc

from oracle.service.calls import Call
from oracle.service.config import ConfigError, ServeConfig
from oracle.service.health import HEALTH_SERVICE

AUTHORIZATION = "authorization"
EXEMPT = frozenset({HEALTH_SERVICE})  #: load balancers probe health without credentials


CERTIFICATE = "-----BEGIN CERTIFICATE-----"
PRIVATE_KEY = "PRIVATE KEY-----"  # "-----BEGIN PRIVATE KEY-----", "-----BEGIN EC PRIVATE KEY-----", ...


def _pem(path: Path, option: str, marker: str, what: str) -> bytes:
    data = path.read_bytes()
    if marker.encode() not in data:
        raise ConfigError(f"{option} {path}: no PEM {what} in the file (no '{marker}' line)")
    return data


def server_credentials(config: ServeConfig) -> grpc.ServerCredentials | None:
    """TLS credentials for `config` (client certificates required when it names a client CA), or None."""
    if config.tls_cert is None or config.tls_key is None:
        return None
    chain = _pem(config.tls_cert, "--tls-cert", CERTIFICATE, "certificate")
    key = _pem(config.tls_key, "--tls-key", PRIVATE_KEY, "private key")
    client_ca = None
    if config.tls_client_ca is not None:
        client_ca = _pem(config.tls_client_ca, "--tls-client-ca", CERTIFICATE, "CA certificate")
    return grpc.ssl_server_credentials(
        [(key, chain)], root_certificates=client_ca, require_client_auth=client_ca is not None
    )


class TokenCheck:
    """A call layer: every call outside EXEMPT must carry `authorization: Bearer <token>`, else UNAUTHENTICATED."""

    def __init__(self, token: str) -> None:
        self._token = token.encode("ascii")

    def admit(self, call: Call) -> Awaitable[None] | None:
        """Compare the presented token in constant time; refuse the call (the abort to await) with UNAUTHENTICATED
        when it is missing or wrong."""
        if call.service in EXEMPT:
            return None
        values = [v for k, v in call.context.invocation_metadata() or () if k == AUTHORIZATION]
        if not values:
            return call.context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "missing bearer token: send the metadata 'authorization: Bearer <token>'",
            )
        value = values[0]
        presented = value if isinstance(value, bytes) else value.encode("utf-8", "replace")
        scheme, _, token = presented.partition(b" ")
        if len(values) > 1 or scheme.lower() != b"bearer":
            return call.context.abort(
                grpc.StatusCode.UNAUTHENTICATED, "the authorization metadata must be one 'Bearer <token>'"
            )
        if not hmac.compare_digest(token.strip(), self._token):
            return call.context.abort(grpc.StatusCode.UNAUTHENTICATED, "wrong bearer token")
        return None

    def finish(self, call: Call, code: grpc.StatusCode) -> None:
        """Nothing to release."""


__all__ = ["EXEMPT", "TokenCheck", "server_credentials"]
