"""The built-in area cards of Amnesia Stories: generated art (``art``) and texts (``texts``)."""
