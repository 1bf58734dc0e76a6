# SPDX-License-Identifier: GPL-3.0-or-later
"""What a check found, and its words: pure Python, no Blender.

- `record`: `CheckRecord` (one pair: the exact `core.Contact` plus what the check saw), `ResultsView` (the list of
  records with the active one, and the display settings) and `SweepRecord` (a pair over an animation);
- `status`: the one table status -> word, icon, colour;
- `text`: lengths in scene units, the typed readout rows `Row(label, value, kind)` of the sidebar, the one-line
  summary and the clipboard text;
- `scene`: which pairs a scene check lists, worst first, and its summary line;
- `report`: the scene check's report as plain data, JSON and CSV;
- `motion`: a sweep's rows, table and mirror values.

The Blender side (`operators/`) builds records and stores them; `panels/` reads them.  Nothing here imports bpy,
so every word the user sees is testable anywhere.
"""
