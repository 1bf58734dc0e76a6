"""Named regressions of core.overlap, each a pair a seeded fuzz run against manifold3d found wrong (turned, scaled
and moved far from the origin, so that contacts which are exact in the meshes' own frame become rounding-level
crossings in the pair frame)."""
import numpy as np

import core
from tests.core import overlap_corpus as oc


def _check(mesh_a, mesh_b, relative, world):
    a, b = oc.place(mesh_a, world), oc.place(mesh_b, world @ relative)
    oc.assert_volume(a, b, oc.manifold_volume(a, b))


def test_a_ridge_lying_on_a_face_is_a_touch_not_two_crossings():
    """A chain link's top ring (an edge whose two triangles both fall away below it) lies in the plane of a
    cup's face: the crossing test reports both triangles of the ridge as crossing the face along the same line,
    with the link on opposite sides; taken as two crossings, the strips beside the line got the link's inside
    and the volume came out 3 % too large."""
    world = np.array([[17.45482612343518, 5.463685559298538, 8.031786294116495, 9.639970650395165],
                      [-9.579070980840326, 12.424346911202443, 12.36565440802537, -32.274427413348015],
                      [-1.6133350889594291, -14.656607721563917, 13.476401817678386, 35.78277898634662],
                      [0.0, 0.0, 0.0, 1.0]])
    relative = oc.pose(np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1.0]]), (-0.75, 0.75, -1.0))
    _check(oc.torus(0.8, 0.2, stretch=0.5), oc.cup(), relative, world)


def test_a_vertex_poking_through_by_rounding_cuts_a_sliver_slab_only():
    """A ball's vertex touches a cup's outer wall; placed tiny and far away, it pokes through by rounding, and
    the crossing segment is ~1e-15 long at a triangle's corner.  The strips of the sliver slab it spans took
    their class from it and handed it to the whole triangle (a kept triangle outside the cup)."""
    world = np.array([[0.0009501632739917753, -0.0032727348758169726, 0.003528424190143056, 327.6759364257129],
                      [-0.0031271991003180735, 0.002313870309251968, 0.00298831240989797, -309.23846990136366],
                      [-0.003658031795917751, -0.0028281781600160275, -0.0016381674992140775,
                       -452.6781949591333],
                      [0.0, 0.0, 0.0, 1.0]])
    relative = oc.pose(np.array([[0, -1, 0], [0, 0, 1], [-1, 0, 0.0]]), (0.0, 0.75, -0.25))
    _check(oc.cup(), oc.ball(0.5), relative, world)


def test_a_ridge_grazing_a_face_decides_only_the_side_it_lies_over():
    """A torus's top ring lies on the inner face of an L; placed 3e4 away, the two triangles of the ring give two
    crossing segments a rounding apart (too far apart to be dropped as one touching pair) and sorted either way
    round.  The strip beside them took its class from the triangle lying over the other side, and the L's face
    was kept whole (13 % too much volume)."""
    world = np.array([[-0.654339531, 0.231533841, 0.129684755, 31730.0538],
                      [-7.15555346e-05, -0.34521216, 0.615966587, 11573.4449],
                      [0.265379069, 0.570794991, 0.319927031, 2148.9122],
                      [0.0, 0.0, 0.0, 1.0]])
    relative = oc.pose(np.array([[0, 1, 0], [0, 0, 1], [-1, 0, 0.0]]), (0.25, 0.5, 0.0))
    _check(oc.l_shape(), oc.torus(), relative, world)


def test_a_sliver_below_the_rounding_of_world_coordinates_is_no_overlap():
    """A coarse ball touching an L, placed tiny and far: the overlap is a sliver of ~1e-44 whose triangles all
    collapse when written in world coordinates; the region came back empty with a volume that was not 0."""
    world = np.array([[0.01064745918127033, 0.0023789195391226863, -0.0016893629412357803, 191.99281311287302],
                      [0.0028322392994525277, -0.009962886464323447, 0.0038211132130958263, -802.2142752774614],
                      [-0.0007011603750050004, -0.004118643886407171, -0.010218940209392652, -146.07118489920737],
                      [0.0, 0.0, 0.0, 1.0]])
    relative = oc.pose(np.array([[0, 1, 0], [-1, 0, 0], [0, 0, 1.0]]), (-0.375, 1.0, 0.5))
    a, b = oc.place(oc.ball(0.5, 8, 4), world), oc.place(oc.l_shape(1.0, 0.5, 0.5), world @ relative)
    for first, second in ((a, b), (b, a)):
        result = core.overlap(first, second)
        assert (result.region.shape[0] == 0) == (result.volume == 0.0)
    _check(oc.ball(0.5, 8, 4), oc.l_shape(1.0, 0.5, 0.5), relative, world)
