/* test_request.c — the request FIFO (timing/request.h): order, bounds,
 * wrap-around and removal from the middle, checked against a plain array
 * model kept by the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/request.h"

static tm_req req(uint32_t tag) { return (tm_req){.addr = 128ull * tag, .tag = tag}; }

/* A full queue refuses a push; pops come back in push order across the wrap. */
static void test_fifo_order_and_bound(void **state)
{
    (void)state;
    tm_queue q;
    assert_true(tm_queue_init(&q, 3));
    for (uint32_t round = 0; round < 5; round++) { /* the head walks around the ring */
        for (uint32_t i = 0; i < 3; i++) {
            tm_req r = req(round * 10 + i);
            assert_true(tm_queue_push(&q, &r));
        }
        tm_req extra = req(99);
        assert_false(tm_queue_push(&q, &extra));
        assert_true(tm_queue_full(&q));
        for (uint32_t i = 0; i < 3; i++) {
            assert_int_equal(tm_queue_front(&q)->tag, round * 10 + i);
            tm_queue_pop(&q);
        }
        assert_true(tm_queue_empty(&q));
        assert_null(tm_queue_front(&q));
        tm_req one = req(7); /* leave the head off zero for the next round */
        assert_true(tm_queue_push(&q, &one));
        tm_queue_pop(&q);
    }
    tm_queue_free(&q);
}

/* Removing the i-th keeps the others in order (an FR-FCFS pick). */
static void test_remove_middle(void **state)
{
    (void)state;
    tm_queue q;
    assert_true(tm_queue_init(&q, 4));
    tm_req a = req(1), b = req(2);
    assert_true(tm_queue_push(&q, &a));
    tm_queue_pop(&q); /* head at 1 */
    uint32_t model[4] = {10, 11, 12, 13};
    for (uint32_t i = 0; i < 4; i++) {
        tm_req r = req(model[i]);
        assert_true(tm_queue_push(&q, &r));
    }
    tm_queue_remove(&q, 1);
    uint32_t expect[3] = {10, 12, 13};
    assert_int_equal(q.n, 3);
    for (uint32_t i = 0; i < 3; i++)
        assert_int_equal(tm_queue_at(&q, i)->tag, expect[i]);
    assert_true(tm_queue_push(&q, &b));
    assert_int_equal(tm_queue_at(&q, 3)->tag, 2);
    tm_queue_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifo_order_and_bound),
        cmocka_unit_test(test_remove_middle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
