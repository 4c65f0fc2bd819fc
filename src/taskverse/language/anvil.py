"""What an anvil is given, as task lists write it: ``combine a Bow and a book with the Power enchantment``.

The anvil (Minecraft Wiki, Anvil; ``anvil.yaml``) takes two things: an item and an enchanted book (the book's
enchantments go onto the item: ``combine.<item>``), two items of one kind (their durabilities are added: the
anvil's repair, ``repair.<item>``), or an item and its repair material. Two different items it refuses. Which
enchantment a book holds is not modelled, so "a book with the Smite enchantment" is the enchanted book.
"""

from __future__ import annotations

from taskverse.language.vocabulary import strip_articles

PAIR_WORDS = frozenset({"and", "with"})
"""The word between the anvil's two things (``A and B``, ``A with B``)."""
SAME_WORDS = frozenset({"another", "other", "second"})
"""Words before the second thing that say it is one more of the first (``and another diamond pickaxe``)."""
BOOK = ("enchanted_book",)
"""The words an enchanted book is read as, whatever enchantment it is said to hold."""
BOOK_WORDS = frozenset({"book", "books"})
ENCHANTMENT_WORDS = frozenset({"enchantment", "enchantments"})


def anvil_things(words: tuple[str, ...]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The ways to split ``VERB A and|with B`` into the anvil's two things' words, a book read as ``BOOK``.

    Every split is given; the reader keeps the one whose two things name items.

    Example:
        >>> anvil_things(("combine", "a", "bow", "and", "a", "book", "with", "the", "power", "enchantment"))[0]
        (('bow',), ('enchanted_book',))

    """
    out = []
    for i in range(2, len(words) - 1):
        if words[i] not in PAIR_WORDS:
            continue
        first, second = _thing(words[1:i]), _thing(words[i + 1:])
        if first and second:
            out.append((first, second))
    return out


def _thing(words: tuple[str, ...]) -> tuple[str, ...]:
    """One of the anvil's things: articles, ``another`` and ``a pair of`` left out; a book with an enchantment."""
    rest = strip_articles(words)
    while rest and rest[0] in SAME_WORDS:
        rest = strip_articles(rest[1:])
    if rest[:2] == ["pair", "of"]:  # "a pair of leather pants"
        rest = rest[2:]
    if rest and rest[0] in BOOK_WORDS and (len(rest) == 1 or rest[-1] in ENCHANTMENT_WORDS):
        return BOOK  # "a book with the Mending enchantment": which one is not modelled (anvil.yaml)
    if rest[:2] == ["enchanted", "book"] and len(rest) == 2:
        return BOOK
    return tuple(rest)
