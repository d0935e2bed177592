/* Scratch memory taken and given back in stack order, for the compiled kernels.
 *
 *   arena_t A = ARENA_INIT;            one per call of a module function (no GIL needed)
 *   amark_t mk = arena_mark(&A);       where a function's work arrays start
 *   p = arena_alloc(&A, bytes);        16-byte aligned, NULL when out of memory
 *   p = arena_zalloc(&A, n, size);     the same, zeroed (calloc's arguments)
 *   arena_release(&A, mk);             everything taken since the mark is free again
 *   arena_free(&A);                    the memory goes back to the C library
 *
 * A function brackets its arrays with a mark and a release, so the next pair of a chunk,
 * or the next call of the assignment solver inside the Lagrangian loop, takes the very
 * memory the last one gave back: no malloc, no free, no page touched for the first time.
 * Why (issue 14, session 33): malloc, calloc and free were ~14% of `mrkit smatch` on SICK
 * (the assignment solver alone took six arrays per call, a few dozen calls per pair), and
 * with two threads glibc takes a lock on every call that misses its per-thread cache (and
 * calloc never uses that cache), which made each chunk ~8% slower than on one thread.
 *
 * Memory is a list of blocks; a block, once taken, is kept until arena_free (a release
 * only rewinds), so the memory of a call is at most about twice the most its arrays ever
 * held at once. */
#ifndef MRKIT_ARENA_H
#define MRKIT_ARENA_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct ablock {
    struct ablock *next;
    size_t cap, used; /* bytes of data after the header, bytes of them taken */
} ablock;

typedef struct {
    ablock *head, *cur; /* cur: the block taken from now (NULL: none yet, or rewound to the start) */
} arena_t;

typedef struct {
    ablock *blk;
    size_t used;
} amark_t;

#define ARENA_INIT {NULL, NULL}
#define ARENA_ALIGN ((size_t)16)
#define ARENA_FIRST ((size_t)64 * 1024)
#define ARENA_HDR ((sizeof(ablock) + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1))

static inline amark_t arena_mark(const arena_t *A) {
    amark_t m = {A->cur, A->cur ? A->cur->used : 0};
    return m;
}

static inline void arena_release(arena_t *A, amark_t m) {
    A->cur = m.blk;
    if (m.blk) m.blk->used = m.used;
}

static inline void arena_free(arena_t *A) {
    ablock *b = A->head;
    while (b) {
        ablock *n = b->next;
        free(b);
        b = n;
    }
    A->head = A->cur = NULL;
}

/* the block after `b` (the first one after NULL) */
static inline ablock **arena_next_slot(arena_t *A, ablock *b) { return b ? &b->next : &A->head; }

static void *arena_alloc_slow(arena_t *A, size_t bytes) {
    ablock **slot = arena_next_slot(A, A->cur);
    ablock *n = *slot;
    if (n && n->cap >= bytes) { /* a block kept from earlier use */
        n->used = bytes;
        A->cur = n;
        return (char *)n + ARENA_HDR;
    }
    /* the blocks after the current one are too small: given back, one larger block instead */
    while (n) {
        ablock *after = n->next;
        free(n);
        n = after;
    }
    *slot = NULL;
    size_t cap = A->cur ? 2 * A->cur->cap : ARENA_FIRST;
    if (cap < bytes) cap = bytes;
    if (cap > SIZE_MAX - ARENA_HDR) return NULL;
    n = malloc(ARENA_HDR + cap);
    if (!n) return NULL;
    n->next = NULL;
    n->cap = cap;
    n->used = bytes;
    *slot = n;
    A->cur = n;
    return (char *)n + ARENA_HDR;
}

static inline void *arena_alloc(arena_t *A, size_t bytes) {
    if (bytes > SIZE_MAX - 2 * ARENA_ALIGN - ARENA_HDR) return NULL;
    bytes = bytes ? (bytes + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1) : ARENA_ALIGN;
    ablock *b = A->cur;
    if (b && b->cap - b->used >= bytes) {
        void *p = (char *)b + ARENA_HDR + b->used;
        b->used += bytes;
        return p;
    }
    return arena_alloc_slow(A, bytes);
}

static inline void *arena_zalloc(arena_t *A, size_t n, size_t size) {
    if (size && n > SIZE_MAX / size) return NULL;
    void *p = arena_alloc(A, n * size);
    if (p && n && size) memset(p, 0, n * size);
    return p;
}

#endif
