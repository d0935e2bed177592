"""Metrics: each turns graphs into features and hands alignment to :mod:`mrkit.align`."""
