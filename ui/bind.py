"""Who may reach a server: loopback addresses, and the rule that anything else needs a secret
(a password for the chat page, an API key for the HTTP API)."""

from __future__ import annotations

import ipaddress

__all__ = ["check_api_bind", "is_loopback_host"]


def is_loopback_host(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (``127.0.0.1``, ``::1``)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


def check_api_bind(host: str, api_key: str) -> None:
    """Refuse to serve the HTTP API on a non-loopback address without an API key.

    Raises:
        ValueError: ``host`` is reachable from other machines and ``api_key`` is empty.
    """
    if not is_loopback_host(host) and not api_key.strip():
        raise ValueError(
            f"Refusing to serve the paperchat API on {host} without an API key: anyone who can reach this "
            "machine could use it. Pass --api-key KEY (or set PAPERCHAT_API_KEY); clients then send "
            "'Authorization: Bearer KEY'. Or bind to 127.0.0.1."
        )
