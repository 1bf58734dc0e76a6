"""Which tests belong to the heavy tiers: the one table that tests/conftest.py marks from.

`make check` runs every test that carries none of these markers (pytest.ini registers them); `make test` runs all.
- blender, gui: every test of tests/blender/ and tests/gui/;
- corpora: the whole seeded corpora (sized by CORE_CORPUS_FRACTION and MESH_CORPUS_FRACTION);
- slow: single tests of about a second or more of CPU each (measured with `pytest --durations=0 tests/core`):
  large pairs, scenes of many clouds, exhaustive references; and part of the longest parametrized sweeps (seeds,
  placements, shapes), so that `make check` stays under two minutes on two cores.  Each stays in `make test`; the
  fast tier keeps a smaller case of the same path wherever the file has one.

An entry is a test id below tests/ (file, file::test, or file::test[parameters]); it covers the tests whose id
starts with it, and `*` stands for any text.  tests/tooling/test_tiers.py checks that every entry still names a
file and a test that exist.
"""
from __future__ import annotations

import re

TIERS: dict[str, tuple[str, ...]] = {
    "blender": ("blender/",),
    "gui": ("gui/",),
    "corpora": ("core/test_corpus.py", "core/test_mesh_corpus.py", "core/test_depth_interval_corpus.py"),
    "slow": (
        # large pairs: copies of meshes of thousands of vertices through the hull and facet paths
        "core/test_hull_depth.py",
        "core/test_near_copy_switch.py",
        "core/test_flat_faces.py::test_fanned_cylinder_copies",
        "core/test_polytope_large.py",
        "core/test_polytope_memory.py",
        "core/test_hull_shared_edges.py",
        "core/test_duplicates.py::test_near_identical_copies_are_exact",
        "core/test_polytope_depth.py::test_float32_uv_sphere_copies_are_exact_in_hull_mode",
        "core/test_polytope_depth.py::test_collide_takes_the_facet_path_on_a_large_pair",
        "core/test_polytope_depth.py::test_convex_meshes_in_exact_mode_take_the_facet_path",
        "core/test_polytope_depth.py::test_regression_float32_copy_arcs_end_within_the_passes",
        "core/test_polytope_depth.py::test_a_triangulation_made_later_is_used_only_when_it_is_right",
        "core/test_polytope_depth.py::test_facet_depth_is_exact_on_copies",
        "core/test_facet_depth_final_check.py::test_the_final_check_reuses_the_bounds_values_only_for_the_same_rows",
        "core/test_polytope_same_shape.py::test_an_exact_copy_climbs_once_and_answers_as_four_climbs_do",
        "core/test_hull_seed.py::test_ico_spheres_carry_over_without_flips",
        "core/test_hull_seed.py::test_whenever_it_answers_the_answer_is_the_hull",
        "core/test_hull_claims.py::test_the_scenarios_have_overlaps_and_touching_regions",
        "core/test_hull.py::test_hull_matches_qhull[10000 on a sphere",
        "core/test_hull.py::test_hull_matches_qhull[ico sphere s5",
        "core/test_hull.py::test_hull_matches_qhull[uv sphere 128x64",
        "core/test_mesh_near_first.py::test_near_first_routes_give_the_full_routes_answers[rod_torus",
        "core/test_mesh_near_first.py::test_near_first_routes_give_the_full_routes_answers[contain-",
        "core/test_mesh_duplicates.py::test_convex_route_gives_the_pipelines_crossing_and_containment[ico sphere",
        "core/test_mesh_duplicates.py::test_convex_route_gives_the_pipelines_crossing_and_containment[cylinder",
        "core/test_mesh_duplicates.py::test_convex_route_gives_the_pipelines_crossing_and_containment[uv sphere",
        "core/test_mesh_nearly_convex.py::*[uv sphere 64x32",
        "core/test_mesh_nearly_convex.py::*[uv sphere 48x24 far from the origin",
        "core/test_mesh_nearly_convex.py::*[uv sphere 32x16",
        "core/test_mesh_nearly_convex.py::*[tiny uv sphere 32x16",
        "core/test_facet_depth_final_check.py::test_the_reuse_happens_and_is_skipped",
        # overlap volumes: every case of the analytic, coplanar, orientation and region families, and the
        # references (manifold3d, the part-clearance and self-crossing oracles); the fast tier keeps the convex,
        # sliver, regression and bad-input files
        "core/test_overlap_boxes.py::test_box_overlap_volume_is_analytic",
        "core/test_overlap_coplanar.py::test_coplanar_faces_cut_differently",
        "core/test_overlap_orientation.py::test_orientation_and_order_do_not_change_the_overlap",
        "core/test_overlap_region.py::test_region_is_closed_on_the_surfaces_and_inside_both",
        "core/test_overlap_manifold.py::test_overlap_volume_matches_manifold3d",
        "core/test_overlap_fuzz.py::test_random_pairs_match_manifold3d",
        "core/test_overlap_near_copies.py",
        # deforming sweeps: the dense-sampling references (the fast tier keeps the closed forms, the hierarchy and
        # the near misses)
        "core/test_ccd_brute_force.py",
        "core/test_deform_search_first_contact.py",
        "core/test_deform_sample_checker.py::test_samples_answer_as_a_fresh_check[*-far from the origin]",
        "core/test_deform_sample_checker.py::test_samples_answer_as_a_fresh_check[*-at 1/100 scale]",
        "core/test_deform_sample_checker.py::test_the_keyed_cases_answer_as_a_fresh_check",
        "core/test_overlap_fuzz.py::test_boxy_pairs_on_a_grid_match_manifold3d",
        "core/test_part_clearance_oracle.py::test_part_clearance_matches_the_oracle",
        "core/test_self_intersections_oracle.py::test_self_crossings_match_the_oracle",
        # scenes of many clouds, every pair also through the scalar engine
        "core/test_lockstep.py::test_lockstep_decisions_are_right",
        "core/test_lockstep.py::test_collide_many_equals_collide",
        "core/test_batch.py::test_lower_bounds_are_certified_by_the_oracle",
        "core/test_batch.py::test_batch_equals_per_pair[*-0]",
        "core/test_mesh_scale_invariance.py::test_scaled_and_moved_pairs_answer_alike[1e-06",
        "core/test_mesh_scale_invariance.py::test_scaled_and_moved_pairs_answer_alike[1000000.0",
        # exhaustive references
        "core/test_mesh_descent.py::test_descent_matches_exhaustive_search",
        "core/test_mesh_oracle.py::test_triangle_pair_distance_matches_an_independent_optimiser",
        "core/test_max_distance.py::test_lower_bound_is_certified_and_the_rest_unchanged",
        "core/test_mesh_corpus_regressions.py::test_witnesses_follow_the_issue_wording",
        "core/test_mesh_corpus_regressions.py::test_exchanging_two_crossing_stars_keeps_the_depth",
        # the fast tier keeps part of each of these parametrized sweeps (same path, same property): history
        # sequences (one drag seed, two jump seeds, the narrowing one among them), lock-step scenes (four of six,
        # each at one clearance: both clearances, the chunked and a far one stay), the closed-form CCD and
        # convex-overlap seeds (odd seeds, i.e. ids ending in an odd digit, move), the copies of 1024-sided
        # cylinders (the 256-sided stay), the oracle searches of the depth interval (one shape stays for the lower
        # bound, two for the inner polytopes), one more batch seed, the deforming samples (four of six kinds) and
        # frames (every kind near the origin, the larger ones also far)
        "core/test_pair_history.py::test_drag_through_and_out[1]",
        "core/test_pair_history.py::test_drag_through_and_out[2]",
        "core/test_pair_history.py::test_drag_through_and_out[3]",
        "core/test_pair_history.py::test_jumps[0]",  # narrows the intersecting answers: the interval stages
        "core/test_pair_history.py::test_jumps[2]",
        "core/test_pair_history.py::test_drag_around_at_a_small_gap[1]",
        "core/test_pair_history.py::test_small_steps_and_jumps_mixed",
        "core/test_hull_folded.py::test_the_same_difference_moved_scaled_and_reordered_is_not_folded",
        "core/test_hull_near_degenerate.py::test_jittered_differences_get_a_sound_hull",
        "core/test_hull_near_degenerate.py::test_jittered_differences_moved_and_scaled_get_a_sound_hull",
        "core/test_hull_rotated_grids.py::test_rotated_jittered_grids_get_a_sound_hull",
        "core/test_hull_rotated_grids.py::test_float32_subdivided_cubes_get_a_sound_hull",
        "core/test_mesh_scale_invariance.py::test_scaled_and_moved_pairs_answer_alike[0.001-1000.0-ball in cup wall",
        "core/test_lockstep_epa.py::test_lockstep_epa_gives_the_scalar_answers[0-1.0-0.0-0.2]",
        "core/test_lockstep_epa.py::test_lockstep_epa_gives_the_scalar_answers[1-1e-06-0.0-0.0]",
        "core/test_lockstep_epa.py::test_lockstep_epa_gives_the_scalar_answers[2-10000.0-0.0-0.2]",
        "core/test_lockstep_epa.py::test_lockstep_epa_gives_the_scalar_answers[3-",
        "core/test_lockstep_epa.py::test_lockstep_epa_gives_the_scalar_answers[4-0.001--30000.0-0.0]",
        "core/test_lockstep_epa.py::test_lockstep_epa_gives_the_scalar_answers[5-",
        *(f"core/test_ccd_closed_form.py::*{digit}]" for digit in "13579"),
        *(f"core/test_overlap_convex.py::*{digit}]" for digit in "13579"),
        "core/test_mesh_depth_interval.py::test_lower_bound_below_every_separating_move_found[ball in a cup wall]",
        "core/test_mesh_depth_interval.py::test_lower_bound_below_every_separating_move_found[rod across a torus",
        "core/test_mesh_depth_interval.py::test_local_inner_polytopes_lie_inside_their_mesh[ball in a cup wall]",
        "core/test_depth_cover.py::test_cover_bound_is_below_every_separating_move_found[ball in a cup wall]",
        "core/test_depth_cover.py::test_cover_bound_is_below_every_separating_move_found[rod across a torus tube]",
        "core/test_depth_lipschitz.py::test_bound_reaches_the_depth_and_not_beyond",
        "core/test_depth_lipschitz.py::test_interval_stage_raises_a_wide_lower_end",
        "core/test_depth_lipschitz_witness.py::test_vertex_witness_closes_blobs_8",
        # the progress hook on a corpus pair that runs every stage of the interval (each run a few seconds)
        "core/test_depth_progress.py::test_a_hook_that_returns_changes_no_bit",
        "core/test_depth_progress.py::test_cancelling_stops_at_that_report",
        "core/test_depth_progress.py::test_the_lipschitz_covering_stops_between_batches",
        "core/test_depth_sweep_dirty.py",
        "core/test_depth_exit_box_in_box.py::test_bound_never_passes_the_depth[True]",
        "core/test_mesh_scale_invariance.py::test_scaled_and_moved_pairs_answer_alike[1.0-1000000.0-ball in cup wall",
        "core/test_duplicate_cylinders.py::test_mesh_copies_answer_as_in_the_same_order[1024",
        "core/test_duplicate_cylinders.py::test_cylinder_copies_are_exact[1024",
        "core/test_batch.py::test_batch_equals_per_pair[*-2]",
        "core/test_deform_sample_checker.py::test_samples_answer_as_a_fresh_check[jitter 1e-6-near the origin]",
        "core/test_deform_sample_checker.py::test_samples_answer_as_a_fresh_check[bulge 0.3-near the origin]",
        "core/test_mesh_deformed_frames.py::test_frames_answer_as_a_fresh_check[jitter 1e-9-True]",
        "core/test_mesh_deformed_frames.py::test_frames_answer_as_a_fresh_check[jitter 1e-6-True]",
        "core/test_mesh_deformed_frames.py::test_frames_answer_as_a_fresh_check[bulge 1e-6-True]",
        # the depth interval's longest single pairs (each 5 to 30 s of CPU: the covering of chain links and
        # containment, a ring through a slot, a six-sided rod through a torus, a torus's copy swapped); the fast
        # tier keeps one containment pair of the witness convention, the even seeds of the hull-depth bound, the L
        # shapes at one of the two far scales, the covering's redone cells and the swapped rod and chain links
        "core/test_depth_held_ring_slot.py",
        "core/test_depth_exit_star_rays.py::test_bound_stays_below_the_cast_rays[True]",
        "core/test_depth_upper_crossing_rays.py::test_rays_and_cones_find_the_short_move[chain/11]",
        "core/test_depth_cover_thin.py::test_six_sided_rod_through_torus",
        "core/test_mesh_depth_interval.py::test_swapped_pair_reads_the_same_interval[torus and its copy in place]",
        "core/test_depth_upper_shell.py::test_shell_search_closes_the_upper_end[chain/23]",
        "core/test_depth_upper_shell.py::test_shell_search_closes_the_upper_end[cup/35]",
        "core/test_depth_polish_no_direction.py",
        # own-frame bounds of moved meshes: the fast tier keeps the placement near the origin
        "core/test_moved_own_frame.py::test_own_frame_bounds_hold_in_the_pair_frame[10000.0]",
        "core/test_moved_own_frame.py::test_own_frame_bounds_hold_in_the_pair_frame[1000000.0]",
        # the lean closest route's jumps and steps (about 6 s of CPU each): the fast tier keeps the origin
        "core/test_moved_lean_jumps.py::test_jumps_and_small_steps_answer_as_fresh[10000.0]",
        "core/test_moved_lean_jumps.py::test_jumps_and_small_steps_answer_as_fresh[1000000.0]",
        "core/test_swapped_hulls_move.py::test_crossing_links_read_the_same_interval_swapped",
        "core/test_cover_witness.py::test_covering_keeps_the_witness_convention[chain-",
        "core/test_cover_witness.py::test_covering_keeps_the_witness_convention[contain-18]",
        "core/test_separation_moves_apart.py::test_separation_ends_the_intersection[pair30]",
        "core/test_mesh_scale_invariance.py::test_scaled_and_moved_pairs_answer_alike[1.0-1000000.0-crossing L",
        *(f"core/test_mesh_bounds.py::test_depth_never_exceeds_the_hull_depth[{odd}]" for odd in "13579"),
        # the crossing test against manifold3d on 200 grid pairs; the oracle's clearance lists below the largest
        # (the fast tier keeps the literal regression and the largest clearance)
        "core/test_overlaps_flush_faces.py::test_the_crossing_test_agrees_with_the_exact_volume_on_a_grid",
        "core/test_part_clearance_groups.py::test_crossing_parts_at_a_large_clearance_match_the_oracle[0.",
        # Blender: eight and four launches of a Blender binary (about 50 s and 30 s); a million-vertex pair
        "blender/test_scene_check_cli.py::test_runner_in_a_blender_binary",
        "blender/test_scene_check_cli_scripts.py::test_runner_in_a_blender_binary_with_auto_run_forced_on",
        "blender/test_huge_meshes.py::test_million_vertex_pair",
        # deforming sweeps far from the origin and at 1/100 scale (about 2 s of CPU each); the tier keeps every
        # scene near the origin at full size
        "blender/test_motion_sweep_deform.py::*placement1]",
        "blender/test_motion_sweep_deform.py::*placement2]",
    ),
}


def _pattern(entry: str) -> re.Pattern:
    return re.compile(".*".join(map(re.escape, entry.split("*"))))


_PATTERNS = [(marker, _pattern(entry)) for marker, entries in TIERS.items() for entry in entries]


def tiers_of(test_id: str) -> set[str]:
    """The tier markers of a test, from its id below tests/ (e.g. "core/test_hull.py::test_x[a-b]")."""
    return {marker for marker, pattern in _PATTERNS if pattern.match(test_id)}
