"""Renderers for the reports (Markdown, HTML) and the templates they use."""
