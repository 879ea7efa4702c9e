"""Checks the browser tests evaluate in the page, shared by the views' tests."""

WIDTHS = (800, 1400)  # the narrowest supported screen (JupyterLab with a sidebar) and a wide one

# The pairs of ``nodes`` whose boxes overlap by more than a pixel, each named by its data-label
# (a chip) or its class (a control): evaluate_all on a locator; [] when nothing overlaps.
OVERLAPS = """(nodes) => {
  const boxes = nodes.map((n) => [n.dataset.label || n.className, n.getBoundingClientRect()]);
  const hits = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, r] = boxes[i], [b, s] = boxes[j];
      if (r.left < s.right - 1 && s.left < r.right - 1 && r.top < s.bottom - 1 && s.top < r.bottom - 1)
        hits.push(a + " / " + b);
    }
  return hits;
}"""
