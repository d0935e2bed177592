/*
 * Shared by the label-metric kernels (_sema.c, _simple.c, _wlk.c, _sembleu.c): one graph
 * of the int64 codes of mrkit.features._triples.pair_codes
 *
 *   n, n_inst, n_attr, n_rel, n_tops, (i, concept)*, (i, role, value)*, (s, role, t)*, top*
 *
 * (n = -1: a graph the compiled reader left to the general path).  String numbers are
 * shared by every graph of one pair_codes call (number 0 is ""); roles are numbers of
 * ":" + role.  cg_read checks the bounds, so a malformed buffer is an error, never a
 * read outside it.
 */
#ifndef MRKIT_CODES_H
#define MRKIT_CODES_H

#include <stdint.h>

typedef struct {
    int64_t n, ni, na, nr, nt;
    const int64_t *inst, *attr, *rel, *tops;
} cgraph;

/* the graph at *p (advanced past it); 0 ok, -1 malformed */
static int cg_read(const int64_t **p, const int64_t *end, cgraph *g) {
    const int64_t *q = *p;
    if (end - q < 5) return -1;
    g->n = q[0]; g->ni = q[1]; g->na = q[2]; g->nr = q[3]; g->nt = q[4];
    if (g->n < -1 || g->ni < 0 || g->na < 0 || g->nr < 0 || g->nt < 0) return -1;
    q += 5;
    int64_t rest = end - q;
    if (g->ni > rest / 2) return -1;
    g->inst = q; q += 2 * g->ni; rest = end - q;
    if (g->na > rest / 3) return -1;
    g->attr = q; q += 3 * g->na; rest = end - q;
    if (g->nr > rest / 3) return -1;
    g->rel = q; q += 3 * g->nr; rest = end - q;
    if (g->nt > rest) return -1;
    g->tops = q; q += g->nt;
    int64_t n = g->n;
    if (n < 0 && (g->ni || g->na || g->nr || g->nt)) return -1;
    for (int64_t k = 0; k < g->ni; k++)
        if (g->inst[2 * k] < 0 || g->inst[2 * k] >= n || g->inst[2 * k + 1] < 0) return -1;
    for (int64_t k = 0; k < g->na; k++)
        if (g->attr[3 * k] < 0 || g->attr[3 * k] >= n || g->attr[3 * k + 1] < 0 || g->attr[3 * k + 2] < 0) return -1;
    for (int64_t k = 0; k < g->nr; k++)
        if (g->rel[3 * k] < 0 || g->rel[3 * k] >= n || g->rel[3 * k + 1] < 0 || g->rel[3 * k + 2] < 0
            || g->rel[3 * k + 2] >= n) return -1;
    for (int64_t k = 0; k < g->nt; k++)
        if (g->tops[k] < 0 || g->tops[k] >= n) return -1;
    *p = q;
    return 0;
}

/* labelled view (as features/labelled.py's labelled_from_triples): nodes are the
 * variables (their concept, string 0 "" without one) then one node per attribute value;
 * edges the relations then one per attribute; written into label (g->n + g->na long) and
 * es, er, et (g->nr + g->na long). */
static inline void cg_fill(const cgraph *g, int64_t *label, int64_t *es, int64_t *er, int64_t *et) {
    for (int64_t v = 0; v < g->n; v++) label[v] = 0;
    for (int64_t j = 0; j < g->ni; j++) label[g->inst[2 * j]] = g->inst[2 * j + 1];
    int64_t e = 0;
    for (int64_t j = 0; j < g->nr; j++, e++) {
        es[e] = g->rel[3 * j]; er[e] = g->rel[3 * j + 1]; et[e] = g->rel[3 * j + 2];
    }
    for (int64_t j = 0; j < g->na; j++, e++) {
        label[g->n + j] = g->attr[3 * j + 2];
        es[e] = g->attr[3 * j]; er[e] = g->attr[3 * j + 1]; et[e] = g->n + j;
    }
}

/* the labelled view of cg_fill in arrays allocated here (n + 1, m + 1 long), freed by the
 * caller also after -1.  0 ok, -1 memory. */
static inline int cg_arrays(const cgraph *g, int64_t *n, int64_t *m, int64_t **label_out, int64_t **es_out,
                     int64_t **er_out, int64_t **et_out) {
    *n = g->n + g->na;
    *m = g->nr + g->na;
    int64_t *label = *label_out = malloc(sizeof(int64_t) * (size_t)(*n + 1));
    int64_t *es = *es_out = malloc(sizeof(int64_t) * (size_t)(*m + 1));
    int64_t *er = *er_out = malloc(sizeof(int64_t) * (size_t)(*m + 1));
    int64_t *et = *et_out = malloc(sizeof(int64_t) * (size_t)(*m + 1));
    if (!label || !es || !er || !et) return -1;
    cg_fill(g, label, es, er, et);
    return 0;
}

static inline PyObject *codes_malformed(void) {
    PyErr_SetString(PyExc_ValueError, "codes: malformed");
    return NULL;
}

/* The int64 values [*p, *end) of a buffer of codes (bytes, or the memoryview the reader
 * hands out without a copy); through a copy (*copy: to free) when the buffer does not start
 * on an 8-byte boundary.  0, or -1 with a Python error. */
static inline int codes_span(const Py_buffer *view, const int64_t **p, const int64_t **end, int64_t **copy) {
    Py_ssize_t n = view->len / (Py_ssize_t)sizeof(int64_t);
    *copy = NULL;
    if (((uintptr_t)view->buf & (sizeof(int64_t) - 1)) != 0) {
        *copy = malloc(sizeof(int64_t) * (size_t)(n + 1));
        if (!*copy) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(*copy, view->buf, sizeof(int64_t) * (size_t)n);
        *p = *copy;
    } else {
        *p = (const int64_t *)view->buf;
    }
    *end = *p + n;
    return 0;
}

/* a kernel of (codes, pairs, one more int argument): body(p, end, pairs, arg) called on the
 * values of the codes argument (any buffer), which is released after */
#define CODES_KERNEL(name, fmt, body)                                                      \
    static PyObject *name(PyObject *self, PyObject *args) {                               \
        Py_buffer view;                                                                    \
        Py_ssize_t pairs;                                                                  \
        int arg = 0;                                                                       \
        (void)self;                                                                        \
        if (!PyArg_ParseTuple(args, fmt, &view, &pairs, &arg)) return NULL;                \
        const int64_t *p, *end;                                                            \
        int64_t *copy;                                                                     \
        PyObject *r = codes_span(&view, &p, &end, &copy) < 0 ? NULL : body(p, end, pairs, arg); \
        free(copy);                                                                        \
        PyBuffer_Release(&view);                                                           \
        return r;                                                                          \
    }

#endif
