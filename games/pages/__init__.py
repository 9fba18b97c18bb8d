"""One module per game: its table page context, option labels and demo games."""
