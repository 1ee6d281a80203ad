"""Self-contained HTML pages (no network, no server): the BRAT scoring error page and the question review page.

Rendered with Jinja2 (autoescaping on); every text from the inputs is escaped, and the data the page's
script reads is embedded as escaped JSON.
"""
