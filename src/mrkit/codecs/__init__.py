"""Codecs between file formats and the graph model."""
