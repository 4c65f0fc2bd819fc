"""Every phrase the reader names as one the world model has no task for (``FREE_FORM``) is reachable as written.

The keys are matched after the reader's rewrites and typo fixes, so a key written before them (``interact with``,
now rewritten to ``interact``) would never match again and its reason would be lost without a test failing. Each
key, read as a phrase, must give its own reason."""

from __future__ import annotations

import pytest

from phrase_support import phrase_reader as _reader
from taskverse.language.reading import PhraseError
from taskverse.language.vocabulary import FREE_FORM


@pytest.mark.parametrize("key", sorted(FREE_FORM), ids=" ".join)
def test_each_free_form_phrase_is_read_with_its_own_reason(key):
    with pytest.raises(PhraseError) as caught:
        _reader().read(" ".join(key))
    assert caught.value.free_form == f"'{' '.join(key)}': {FREE_FORM[key]}"
