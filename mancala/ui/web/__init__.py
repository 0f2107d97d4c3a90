"""The browser board: static HTML, CSS and JavaScript served by :mod:`mancala.server`."""
