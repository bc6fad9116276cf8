#!/usr/bin/python3
"""Screenshot of a trace2html page (catapult's trace viewer, the engine of chrome://tracing).

Drives headless Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: no
websocket module, no network): loads the page, waits until the viewer has imported the trace,
prints what its importer said (model.importWarnings, which the page shows only in a dialog),
switches the arrows of every flow category on (the viewer draws none until the user ticks its
"Flow events" boxes), shows a window of the trace, optionally selects a slice so that the panel
below lists its arguments, and writes a PNG, quantized to a palette to keep it small.

Used by tools/docs/timeline_viewer_shot.sh (docs, not CI).
"""

import argparse
import base64
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    """Headless Chromium with the DevTools protocol on fds 3 (to it) and 4 (from it)."""

    def __init__(self, chromium, user_data_dir):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        # The protocol wants the pipes as the child's fds 3 and 4; the shell moves them there.
        self.proc = subprocess.Popen(
            ['/bin/sh', '-c', 'exec "$0" "$@" 3<&%d 4>&%d' % (to_r, from_w), chromium,
             '--headless', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe',
             '--user-data-dir=' + user_data_dir, '--hide-scrollbars', 'about:blank'],
            pass_fds=(to_r, from_w), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.buffer = b''
        self.next_id = 0
        self.events = []

    def _read_message(self):
        while b'\0' not in self.buffer:
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                raise RuntimeError('Chromium closed the DevTools pipe')
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b'\0', 1)
        return json.loads(message)

    def call(self, method, session=None, **params):
        self.next_id += 1
        request = {'id': self.next_id, 'method': method, 'params': params}
        if session:
            request['sessionId'] = session
        os.write(self.to_w, json.dumps(request).encode() + b'\0')
        while True:
            message = self._read_message()
            if message.get('id') == self.next_id:
                if 'error' in message:
                    raise RuntimeError('%s: %s' % (method, message['error']))
                return message['result']
            self.events.append(message)

    def close(self):
        try:
            self.call('Browser.close')
        except RuntimeError:
            pass
        self.proc.wait(timeout=30)


def evaluate(browser, session, expression):
    result = browser.call('Runtime.evaluate', session, expression=expression, returnByValue=True,
                          awaitPromise=True)
    if 'exceptionDetails' in result:
        raise RuntimeError('script failed: %s\n%s' % (expression, json.dumps(
            result['exceptionDetails'], indent=1)))
    return result['result'].get('value')


# The trace2html page keeps its tr-ui-timeline-view in g_timelineViewEl and sets its model once
# the import resolved (tracing/trace2html.html).
READY = "typeof g_timelineViewEl !== 'undefined' && !!g_timelineViewEl.model && " \
        "!!g_timelineViewEl.trackView"

# The page's dialogs (tr.ui.b.Overlay, class overlay): "Importing..." while it imports, "Import
# error" when it could not (trace2html.html).
OVERLAY = "Array.from(document.querySelectorAll('.overlay')).map(o => o.title + ': ' + " \
          "o.textContent.trim()).join(' | ')"

SUMMARY = """(() => {
  const m = g_timelineViewEl.model;
  let slices = 0, threads = [];
  for (const p of Object.values(m.processes)) {
    for (const t of Object.values(p.threads)) {
      threads.push(t.name);
      slices += t.sliceGroup.slices.length;
    }
  }
  return {warnings: m.importWarnings.map(w => ({type: w.type, message: w.message})),
          threads: threads, slices: slices, flows: m.flowEvents.length,
          flow_categories: [...new Set(m.flowEvents.map(f => f.category))],
          bounds_ms: [m.bounds.min, m.bounds.max]};
})()"""

# Ticks every flow category, as the "Flow events" dropdown's boxes do.
SHOW_FLOWS = """(() => {
  const tv = g_timelineViewEl;
  for (const f of tv.model.flowEvents)
    for (const c of tr.b.getCategoryParts(f.category)) tv.selectedFlowEvents.add(c);
  tv.trackView.viewport.dispatchChangeEvent();
  return [...tv.selectedFlowEvents];
})()"""

WINDOW = """((t0, t1) => {
  const vp = g_timelineViewEl.trackView.viewport;
  const width = g_timelineViewEl.trackView.modelTrackContainer_.canvas.width;
  const dt = new tr.ui.TimelineDisplayTransform();
  dt.set(vp.currentDisplayTransform);
  dt.xSetWorldBounds(t0, t1, width);
  vp.setDisplayTransformImmediately(dt);
  return width;
})(%r, %r)"""

# Selects the first slice named NAME that begins at or after T ms (on any row).
SELECT = """((name, t) => {
  const m = g_timelineViewEl.model;
  let best;
  for (const p of Object.values(m.processes))
    for (const th of Object.values(p.threads))
      for (const s of th.sliceGroup.slices)
        if (s.title === name && s.start >= t && (!best || s.start < best.start)) best = s;
  if (!best) throw new Error('no slice ' + name + ' at or after ' + t + ' ms');
  g_timelineViewEl.brushingStateController.changeSelectionFromTimeline(
      new tr.model.EventSet([best]));
  return [best.title, best.start, best.duration, best.parentContainer.name];
})(%s, %r)"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('page', help='the trace2html page')
    parser.add_argument('png', help='the screenshot to write')
    parser.add_argument('--size', default='1600x900', help='window size, WxH (CSS pixels)')
    parser.add_argument('--window', help='the time window to show, T0..T1 in ms of the trace')
    parser.add_argument('--select', help='NAME@T: select the first slice NAME beginning at or '
                        'after T ms')
    parser.add_argument('--colors', type=int, default=64,
                        help='palette size of the PNG (0 keeps full colour)')
    parser.add_argument('--chromium', default='chromium')
    parser.add_argument('--timeout', type=float, default=120, help='seconds to wait for the import')
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split('x'))

    # A fresh profile: the viewer keeps its settings (the flow boxes ticked) in localStorage.
    profile = tempfile.mkdtemp(prefix='catapult_shot_')
    browser = Browser(args.chromium, profile)
    try:
        target = browser.call('Target.createTarget', url='about:blank')['targetId']
        session = browser.call('Target.attachToTarget', targetId=target, flatten=True)['sessionId']
        browser.call('Emulation.setDeviceMetricsOverride', session, width=width, height=height,
                     deviceScaleFactor=1, mobile=False)
        browser.call('Runtime.enable', session)
        browser.call('Page.enable', session)
        browser.call('Page.navigate', session, url='file://' + os.path.abspath(args.page))
        deadline = time.time() + args.timeout
        while not evaluate(browser, session, READY):
            dialog = evaluate(browser, session, OVERLAY)
            if 'Import error' in dialog:
                raise RuntimeError('the viewer could not import %s: %s' % (args.page, dialog))
            if time.time() > deadline:
                errors = [e['params']['exceptionDetails'].get('exception', {}).get('description')
                          for e in browser.events if e.get('method') == 'Runtime.exceptionThrown']
                raise RuntimeError('the viewer did not finish importing %s in %g s (page '
                                   'exceptions: %s; dialog: %s)' %
                                   (args.page, args.timeout, errors or 'none', dialog or 'none'))
            time.sleep(0.25)
        summary = evaluate(browser, session, SUMMARY)
        print('catapult_shot: %s: %d rows, %d slices, %d flow events, %.6g..%.6g ms' %
              (args.page, len(summary['threads']), summary['slices'], summary['flows'],
               summary['bounds_ms'][0], summary['bounds_ms'][1]))
        print('catapult_shot: import warnings: %d' % len(summary['warnings']))
        for warning in summary['warnings']:
            print('  %s: %s' % (warning['type'], warning['message']))
        shown = evaluate(browser, session, SHOW_FLOWS)
        print('catapult_shot: flow categories switched on: %s' % json.dumps(shown))
        # The track view sets its first view (the whole trace) in an animation frame once its
        # canvas has a size; a window set before that would be overwritten.
        time.sleep(1.0)
        if args.window:
            t0, t1 = (float(v) for v in args.window.split('..'))
            evaluate(browser, session, WINDOW % (t0, t1))
        if args.select:
            name, t = args.select.rsplit('@', 1)
            chosen = evaluate(browser, session, SELECT % (json.dumps(name), float(t)))
            print('catapult_shot: selected %s at %.6g ms (%.6g ms) on %s' % tuple(chosen))
        time.sleep(1.0)  # let the viewer's animation frames draw the new view
        # Console messages and exceptions the page reported while we worked.
        for event in browser.events:
            if event.get('method') == 'Runtime.exceptionThrown':
                print('catapult_shot: page exception: %s' %
                      event['params']['exceptionDetails'].get('text'))
            elif event.get('method') == 'Runtime.consoleAPICalled':
                params = event['params']
                text = ' '.join(str(a.get('value', a.get('description', ''))) for a in params['args'])
                print('catapult_shot: console.%s: %s' % (params['type'], text[:300]))
        shot = browser.call('Page.captureScreenshot', session, format='png')['data']
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)

    png = base64.b64decode(shot)
    if args.colors:
        from PIL import Image
        image = Image.open(io.BytesIO(png)).convert('RGB')
        image = image.quantize(colors=args.colors, method=Image.Quantize.MEDIANCUT, dither=0)
        out = io.BytesIO()
        image.save(out, format='PNG', optimize=True)
        png = out.getvalue()
    with open(args.png, 'wb') as f:
        f.write(png)
    print('catapult_shot: wrote %s (%d bytes)' % (args.png, len(png)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
