"""When a control's output never changed, the move counts as lost between browser and kernel (and
is tried again with another value) only if the kernel answered and either holds another value for
that control or holds no demo picture like the one the page shows; anything else stays a problem
of the lesson."""

from __future__ import annotations

from lessonpage import move_lost, picture_lost

LABELS = [("sample", "0"), ("FFN layer", "11"), ("prompt", "the capital of tumen is")]


def test_a_move_the_kernel_never_received_is_lost():
    assert move_lost(LABELS, "sample", "1")


def test_a_move_the_kernel_holds_is_not_lost_even_if_its_picture_did_not_change():
    assert not move_lost(LABELS, "sample", "0")
    # the browser writes the spaces of a label as no-break spaces
    assert not move_lost(LABELS, "prompt", "the\xa0capital\xa0of\xa0tumen\xa0is")


def test_no_answer_or_no_such_control_in_the_kernel_is_not_called_lost():
    assert not move_lost(None, "sample", "1")  # a busy kernel: the problem stands
    assert not move_lost(LABELS, "activation", "gelu")  # a closed or unknown widget
    assert not move_lost([], "sample", "1")


def test_a_picture_the_kernel_drew_but_the_page_never_showed_is_lost():
    assert picture_lost(["0a1b", "9f8e"], "5555")


def test_a_picture_the_kernel_still_holds_is_not_lost_so_a_deaf_demo_fails():
    assert not picture_lost(["0a1b", "9f8e"], "9f8e")


def test_no_answer_or_no_picture_is_not_called_lost():
    assert not picture_lost(None, "5555")  # a busy kernel: the problem stands
    assert not picture_lost(["0a1b"], None)  # outside a demo, or a picture that cannot be read
