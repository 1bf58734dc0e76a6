# SPDX-License-Identifier: GPL-3.0-or-later
"""What a check found, and its words: pure Python, no Blender.

- `record`: `CheckRecord` (one pair: the exact `core.Contact` plus what the check saw), `ResultsView` (the list of
  records with the active one, and the display settings) and `SweepRecord` (a pair over an animation);
- `status`: the one table status -> word, icon, colour;
- `text`: lengths in scene units, the typed readout rows `Row(label, value, kind)` of the sidebar, the one-line
  summary, the clipboard text and the report records.

The Blender side (`operators/`) builds records and stores them; `panels/` reads them.  Nothing here imports bpy,
so every word the user sees is testable anywhere.
"""
