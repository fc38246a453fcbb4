"""``printables serve``: a local customizer in the browser.

forms.py   web forms generated from the CLI's click commands (same options, types and messages)
jobs.py    one worker process and folder per submitted form; progress and cancel
worker.py  runs the CLI command, the checks and pdftoppm inside a job's folder
pages.py   the HTML
server.py  the HTTP server (standard library), which answers only this machine by default
static/    the page's script, style and WebGL STL viewer (no CDN: works offline)
"""
