"""A small client of Chrome's DevTools protocol over --remote-debugging-pipe: no port, no dependency.

Chromium reads commands on fd 3 and writes replies and events on fd 4, each message JSON ended by NUL.
"""

import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time


def chromium_binary():
    for path in ("/usr/lib/chromium/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if path and os.path.exists(path):
            return path
    raise SystemExit("chromium is not installed (apt-get install -y chromium)")


class CheckFailed(Exception):
    pass


class Browser:
    """A headless Chromium with one page; `events` holds the page's console errors and exceptions."""

    def __init__(self, width=1440, height=900):
        self.profile = tempfile.mkdtemp(prefix="fluxion-chromium-")
        commands_r, commands_w = os.pipe()
        replies_r, replies_w = os.pipe()

        def child_fds():
            a = fcntl.fcntl(commands_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(replies_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen(
            [chromium_binary(), "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             f"--user-data-dir={self.profile}", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
             f"--window-size={width},{height}", "about:blank"],
            pass_fds=(3, 4), preexec_fn=child_fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_r)
        os.close(replies_w)
        self.out = os.fdopen(commands_w, "wb", buffering=0)
        self.inp = os.fdopen(replies_r, "rb", buffering=0)
        self.next_id = 0
        self.replies = {}
        self.events = []
        self.errors = []
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable", session=True)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=True)

    def _read(self):
        buffer = b""
        while True:
            chunk = self.inp.read(1 << 16)
            if not chunk:
                break
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                with self.lock:
                    if "id" in message:
                        self.replies[message["id"]] = message
                    else:
                        self._note(message)
                        self.events.append(message)
                    self.lock.notify_all()

    def _note(self, message):
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text")
            self.errors.append(f"exception: {text}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = [a.get("value", a.get("description", "")) for a in params.get("args", [])]
            self.errors.append("console.error: " + " ".join(map(str, args)))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            self.errors.append(f"log: {entry.get('text')} {entry.get('url', '')}")

    def send(self, method, params=None, session=False, timeout=60):
        with self.lock:
            self.next_id += 1
            ident = self.next_id
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        self.out.write(json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        with self.lock:
            while ident not in self.replies:
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise CheckFailed(f"{method}: no answer from chromium in {timeout} s")
                self.lock.wait(min(left, 0.5))
            reply = self.replies.pop(ident)
        if "error" in reply:
            raise CheckFailed(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def evaluate(self, expression, timeout=60):
        """The value of a JavaScript expression in the page (awaited when it is a promise)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True, "timeout": timeout * 1000},
                           session=True, timeout=timeout + 5)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise CheckFailed(f"{expression[:80]}…: {details.get('exception', {}).get('description', details)}")
        return result["result"].get("value")

    def navigate(self, url, ready=None, timeout=60):
        """Loads `url`, then waits until the expression `ready` is true."""
        self.send("Page.navigate", {"url": url}, session=True)
        if ready:
            self.wait_for(ready, timeout)

    def wait_for(self, expression, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if self.evaluate(f"Boolean({expression})", timeout=max(1, int(deadline - time.monotonic()))):
                    return
            except CheckFailed:
                pass
            time.sleep(0.05)
        raise CheckFailed(f"waited {timeout} s for: {expression}")

    def center_of(self, selector):
        box = self.evaluate(f"""(() => {{
            const e = document.querySelector({json.dumps(selector)});
            if (!e) return null;
            e.scrollIntoView({{block: "nearest"}});
            const r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2];
        }})()""")
        if not box:
            raise CheckFailed(f"no element {selector}")
        return box

    def click(self, selector):
        """A real mouse click in the middle of the element."""
        x, y = self.center_of(selector)
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent",
                      {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}, session=True)

    def type_text(self, text):
        self.send("Input.insertText", {"text": text}, session=True)

    def press(self, key, code=None, key_code=0):
        for kind in ("rawKeyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent",
                      {"type": kind, "key": key, "code": code or key, "windowsVirtualKeyCode": key_code},
                      session=True)

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *error):
        self.close()
