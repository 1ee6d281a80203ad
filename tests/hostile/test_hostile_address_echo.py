"""An endpoint URL or a Dask address that holds a password (with ``/``, ``@``, a space, ``#`` or ``?`` in it),
or a key or token in a query, is refused by one error line that shows none of it."""

from __future__ import annotations

import pytest

from chemref._io.secrets import safe_url
from chemref.errors import InputError

pytest.importorskip("distributed")
from chemref.questions.output.cluster import check_address  # noqa: E402

SECRET = "Zq7hunter2"
PASSWORDS = [f"{SECRET}/x", f"{SECRET}@x", f"{SECRET} x", f"{SECRET}#x", f"{SECRET}?x", SECRET]
URLS = ([f"http://user:{pw}@127.0.0.1:8000/v1" for pw in PASSWORDS]
        + [f"http://127.0.0.1:8000/v1?api_key={SECRET}", f"http://127.0.0.1:8000/v1?token={SECRET}",
           f"http://127.0.0.1:8000/v1#{SECRET}", f"http://127.0.0.1:{SECRET}/v1", f"http://[{SECRET}/v1"])
ADDRESSES = ([f"{scheme}://user:{pw}@127.0.0.1:8786" for scheme in ("tcp", "tls") for pw in PASSWORDS]
             + [f"tcp://127.0.0.1:8786?token={SECRET}", f"tls://127.0.0.1:8786#{SECRET}",
                f"tcp://127.0.0.1:{SECRET}"])


def _pieces(message: str) -> list[str]:
    return [SECRET[i:i + 5] for i in range(len(SECRET) - 4) if SECRET[i:i + 5] in message]


@pytest.mark.parametrize("url", URLS)
def test_an_endpoint_error_shows_no_credential(url: str) -> None:
    with pytest.raises(InputError) as caught:
        safe_url(url, what="--endpoint")
    message = f"{caught.value} {caught.value.hint or ''}"
    assert "--endpoint" in message and not _pieces(message), message


@pytest.mark.parametrize("address", ADDRESSES)
def test_a_dask_address_error_shows_no_credential(address: str) -> None:
    with pytest.raises(InputError) as caught:
        check_address(address)
    message = f"{caught.value} {caught.value.hint or ''}"
    assert "--dask" in message and not _pieces(message), message
