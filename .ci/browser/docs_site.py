"""The docs site's checks (`checks.py docs`): the merged landing page, each module's articles, and every symbol
page of the modules named with --every-symbol, against the catalogs and the symbol graphs the site was built from."""

import functools
import http.server
import importlib.util
import json
import pathlib
import re
import sys
import threading

from cdp import Browser

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADING = 'document.querySelector("main h1")?.textContent.trim()'
LINKS = 'JSON.stringify([...document.querySelectorAll("main a[href]")].map((a) => [a.pathname, a.textContent]))'
MAIN_TEXT = 'document.querySelector("main").innerText'
CODE = '[...document.querySelectorAll("main pre code")].map((c) => c.textContent).join("\\n")'
# Prose shows symbol names without DocC's disambiguation hashes (`flush()-63ols`).
HASHES = r"/\)-[0-9a-z]{4,6}\b|-swift\.[a-z]+/"

doc_comments = importlib.util.spec_from_file_location("doc_comments", ROOT / ".ci/doc-comments.py")
doc_comments_module = importlib.util.module_from_spec(doc_comments)
doc_comments.loader.exec_module(doc_comments_module)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A request the browser dropped (a page left while it loaded) is no error of the site's.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def catalog_of(module):
    return ROOT / "Sources" / module / f"{module}.docc"


def articles_of(catalog):
    """The catalog's articles: name → title (symbol extension files and the landing page left out)."""
    articles = {}
    for path in sorted(pathlib.Path(catalog).glob("*.md")):
        title = path.read_text(encoding="utf-8").splitlines()[0].lstrip("# ").strip()
        if not title.startswith("``"):
            articles[path.stem] = title
    return articles


def abstract_of(module):
    """The first paragraph of the module's landing page in its catalog; empty without one."""
    landing = catalog_of(module) / f"{module}.md"
    if not landing.exists():
        return ""
    lines = landing.read_text(encoding="utf-8").splitlines()[1:]
    # NB: as the page shows it: code voice without its backticks.
    return " ".join(next(p for p in "\n".join(lines).split("\n\n") if p.strip()).replace("`", "").split())


def plain(text):
    """Text as a page shows it, for comparing: typographic quotes as plain ones, runs of white space as one."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return " ".join(text.split())


def rendered_pattern(markdown):
    """A pattern of how DocC shows a paragraph of markdown: a symbol link as some name, code voice without its
    backticks."""
    parts = re.split(r"``[^`]+``", markdown)
    return ".+?".join(re.escape(plain(part.replace("`", ""))) for part in parts)


def module_of(path):
    """The module of a page's path, /documentation/MODULE/…; empty for the merged landing page."""
    parts = path.strip("/").split("/")
    return parts[1] if len(parts) > 1 else ""


def symbol_pages(site, module):
    """The site's symbol pages of MODULE: precise identifier → path."""
    pages = {}
    data = pathlib.Path(site) / "data"
    for path in (data / "documentation" / module.lower()).rglob("*.json"):
        page = json.loads(path.read_text(encoding="utf-8"))
        if page.get("kind") == "symbol" and "externalID" in page.get("metadata", {}):
            pages[page["metadata"]["externalID"]] = "/" + str(path.relative_to(data).with_suffix(""))
    return pages


def check_docs(site, graphs, modules, every_symbol, check):
    server = QuietServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    hashed, linked = [], set()

    def visit(path):
        browser.navigate(base + path, HEADING)
        hashed.extend(f"{path}: {text}" for text in browser.evaluate(f"""[...document.querySelectorAll(
            "main a, main code")].map((e) => e.textContent).filter((t) => {HASHES}.test(t))"""))
        linked.update((path, link.rstrip("/")) for link, _ in json.loads(browser.evaluate(LINKS))
                      if link.startswith("/documentation/"))
        return browser.evaluate(HEADING)

    try:
        with Browser() as browser:
            print(f"docs site: {site} on {base} ({', '.join(modules)})")
            # The root leads to the merged landing page, which links each module with its abstract.
            browser.navigate(base + "/", HEADING)
            check(browser.evaluate("location.pathname") == "/documentation/", "the root leads to the landing page",
                  browser.evaluate("location.pathname"))
            visit("/documentation/")
            links = {path.rstrip("/"): plain(text) for path, text in json.loads(browser.evaluate(LINKS))}
            for module in modules:
                link = links.get(f"/documentation/{module.lower()}", "")
                check(link.startswith(module) and plain(abstract_of(module)) in link,
                      f"the landing page links {module}, with its abstract", link)

            for module in modules:
                check_articles(browser, base, module, visit, check)
            for module in every_symbol:
                check_symbols(browser, site, graphs, module, visit, check)
            check(not hashed, "no link or code in the pages visited shows a disambiguation hash", hashed)
            data = pathlib.Path(site) / "data"
            broken = [f"{page} → {link}" for page, link in sorted(linked)
                      if not (data / f"{link.lstrip('/')}.json").exists()]
            check(not broken, f"each of the {len({link for _, link in linked})} pages they link exists", broken)
            across = [(module_of(page), module_of(link)) for page, link in linked]
            across = [(a, b) for a, b in across if a and b and a != b]
            modules_linked = sorted({f"{a} → {b}" for a, b in across})
            print(f"  ({len(across)} links between modules: {', '.join(modules_linked)})")
            check(not browser.errors, "no console errors", browser.errors)
    finally:
        server.shutdown()


def check_articles(browser, base, module, visit, check):
    """The module's landing page renders; every article is reachable from it: its links, and theirs."""
    catalog = catalog_of(module)
    articles = articles_of(catalog)
    landing = f"/documentation/{module.lower()}"
    title = visit(landing)
    check(title == module and plain(abstract_of(module)) in plain(browser.evaluate(MAIN_TEXT)),
          f"{module}'s landing page renders its title and abstract", title)
    if "GettingStarted" in articles:
        title = visit(f"{landing}/gettingstarted")
        check(title == articles["GettingStarted"], "Getting Started renders its title", title)
        source = (catalog / "GettingStarted.md").read_text(encoding="utf-8")
        first_code = re.search(r"```swift\n(.*?)\n```", source, re.S).group(1).splitlines()[0].strip()
        check(first_code in browser.evaluate(CODE), f"and its code (“{first_code}”)")
    names = {a.lower() for a in articles}
    seen, queue, reached = {landing}, [landing], {}
    while queue:
        path = queue.pop(0)
        reached[path.rsplit("/", 1)[-1]] = visit(path)
        for link, _ in json.loads(browser.evaluate(LINKS)):
            link = link.rstrip("/").lower()
            if link.startswith(landing + "/") and link.count("/") == 3 and link not in seen \
                    and link.rsplit("/", 1)[-1] in names:
                seen.add(link)
                queue.append(link)
    for name, title in articles.items():
        check(reached.get(name.lower()) == title, f"{module}: {name} is reachable and renders its title",
              reached.get(name.lower()))
    print(f"  ({len(seen) - 1} article pages of {module} visited)")


def check_symbols(browser, site, graphs, module, visit, check):
    """Every public symbol MODULE declares has a page that shows its name, its doc comment's first paragraph
    and the first line of its example."""
    pages = symbol_pages(site, module)
    symbols = list(doc_comments_module.declared(pathlib.Path(graphs) / module, module))
    for symbol in symbols:
        name = "/".join(symbol["pathComponents"])
        path = pages.get(symbol["identifier"]["precise"])
        check(path is not None, f"{module}: {name} has a page")
        title = visit(path)
        lines = [line["text"] for line in symbol["docComment"]["lines"]]
        abstract = "\n".join(lines).strip().split("\n\n")[0]
        text = plain(browser.evaluate(MAIN_TEXT))
        starts = [i for i, line in enumerate(lines) if line.strip() == "```swift"]
        first_line = lines[starts[0] + 1].strip() if starts else None
        shown = title == symbol["names"]["title"] and re.search(rendered_pattern(abstract), text)
        if first_line:
            shown = shown and first_line in browser.evaluate(CODE)
        check(shown, f"{module}: {name} renders its doc comment" + (" and example" if first_line else ""),
              f"{path}: {title}; {abstract!r} not in {text[:300]!r}")
    print(f"  ({len(symbols)} symbol pages of {module} visited)")
