"""Task phrases as papers write them: the phrase reader and its vocabulary (see ``docs/phrases.md``)."""
