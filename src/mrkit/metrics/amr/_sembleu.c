/*
 * mrkit.metrics.amr._sembleu: the summable SemBLEU row of one pair of graphs given by
 * their Smatch triples (mrkit's own view, not the reference's), the kernel of
 * mrkit.metrics.amr.sembleu's triples path.
 *
 *   sembleu_row(n_a, instances_a, attributes_a, relations_a,
 *               n_b, instances_b, attributes_b, relations_b, k) -> list or None
 *
 * a is the gold graph, b the system graph; the lists are those of
 * mrkit.features.triples.Triples.  The result is what sembleu._row computes (the Python
 * reference, tested to the bit against this): clipped matches of the n-grams of every
 * order 1..k, system n-grams of every order, system length, gold length, where the
 * n-grams start at every node: n = 1 the node labels, n = 2 (label, role, label) of every
 * edge, n = 3 (label, role, label, role, label) of every two consecutive edges (not the
 * same self-loop twice); length = nodes + edges.  Strings are numbered through a Python
 * dict; n-grams are packed integers, sorted, and matched run by run (min of the two
 * counts).  None (the caller computes in Python) when an input is not of that shape, k is
 * not 1..3 or there are 2^21 distinct strings or more.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_triple_arrays.h"

typedef struct {
    uint64_t hi, lo;
} Key;

typedef struct {
    Py_ssize_t n, m;
    int64_t *label, *es, *er, *et;
    Py_ssize_t *off; /* n + 1: CSR offsets of out-edges */
    Py_ssize_t *out; /* m edge numbers */
} G;

static void g_free(G *g) {
    free(g->label); free(g->es); free(g->er); free(g->et); free(g->off); free(g->out);
}


/* the out-edge lists (CSR) of g, whose n, m, label, es, er, et are set; 0 ok, -1 memory
 * (no exception set) */
static void g_csr(G *g, Py_ssize_t *fill);

static int g_finish(G *g) {
    g->off = calloc(g->n + 2, sizeof(Py_ssize_t));
    g->out = malloc(sizeof(Py_ssize_t) * (g->m + 1));
    Py_ssize_t *fill = malloc(sizeof(Py_ssize_t) * (g->n + 1));
    if (!g->off || !g->out || !fill) { free(fill); return -1; }
    g_csr(g, fill);
    free(fill);
    return 0;
}

/* g_finish's lists in g->off (n + 2, zeros) and g->out (m + 1), fill: n + 1 of scratch */
static void g_csr(G *g, Py_ssize_t *fill) {
    Py_ssize_t e;
    for (e = 0; e < g->m; e++) g->off[g->es[e] + 1]++;
    for (Py_ssize_t v = 0; v < g->n; v++) g->off[v + 1] += g->off[v];
    memcpy(fill, g->off, sizeof(Py_ssize_t) * (g->n + 1));
    for (e = 0; e < g->m; e++) g->out[fill[g->es[e]]++] = e;
}

#include "_codes.h"
#include "_graph_build.h"   /* g_build, g_build_codes */

static int cmp_key(const void *a, const void *b) {
    const Key *x = a, *y = b;
    if (x->hi != y->hi) return (x->hi > y->hi) - (x->hi < y->hi);
    return (x->lo > y->lo) - (x->lo < y->lo);
}

static inline int key_less(const Key *x, const Key *y) {
    return x->hi != y->hi ? x->hi < y->hi : x->lo < y->lo;
}

/* the keys sorted: insertion sort for the few n-grams of a sentence, qsort beyond (equal
 * keys are identical, so any sort gives the same array) */
static void sort_keys(Key *k, Py_ssize_t c, int wide) {
    if (c > 32) {
        qsort(k, c, sizeof(Key), cmp_key);
        return;
    }
    if (!wide) {   /* every lo is 0 (orders 1 and 2): hi alone orders them */
        for (Py_ssize_t i = 1; i < c; i++) {
            uint64_t x = k[i].hi;
            Py_ssize_t j = i;
            while (j > 0 && x < k[j - 1].hi) { k[j].hi = k[j - 1].hi; j--; }
            k[j].hi = x;
        }
        return;
    }
    for (Py_ssize_t i = 1; i < c; i++) {
        Key x = k[i];
        Py_ssize_t j = i;
        while (j > 0 && key_less(&x, &k[j - 1])) { k[j] = k[j - 1]; j--; }
        k[j] = x;
    }
}

/* how many n-grams of order n (1..3) g has (at most) */
static Py_ssize_t grams_size(const G *g, int n) {
    Py_ssize_t size = 0;
    if (n == 1) size = g->n;
    else if (n == 2) size = g->m;
    else
        for (Py_ssize_t e = 0; e < g->m; e++) {
            int64_t m = g->et[e];
            size += g->off[m + 1] - g->off[m];
        }
    return size;
}

/* the n-grams of order n (1..3) of g, sorted, into k (grams_size(g, n) long); their count */
static Py_ssize_t grams_into(const G *g, int n, Key *k) {
    Py_ssize_t c = 0;
    if (n == 1)
        for (Py_ssize_t v = 0; v < g->n; v++) { k[c].hi = (uint64_t)g->label[v]; k[c].lo = 0; c++; }
    else if (n == 2)
        for (Py_ssize_t e = 0; e < g->m; e++) {
            k[c].hi = ((uint64_t)g->label[g->es[e]] << 42) | ((uint64_t)g->er[e] << 21) | (uint64_t)g->label[g->et[e]];
            k[c].lo = 0;
            c++;
        }
    else
        for (Py_ssize_t e = 0; e < g->m; e++) {
            int64_t v = g->es[e], m = g->et[e], r1 = g->er[e];
            uint64_t hi = ((uint64_t)g->label[v] << 42) | ((uint64_t)r1 << 21) | (uint64_t)g->label[m];
            for (Py_ssize_t p = g->off[m]; p < g->off[m + 1]; p++) {
                Py_ssize_t f = g->out[p];
                int64_t r2 = g->er[f], t = g->et[f];
                if (m == v && r2 == r1 && t == m) continue; /* the same self-loop twice */
                k[c].hi = hi;
                k[c].lo = ((uint64_t)r2 << 21) | (uint64_t)g->label[t];
                c++;
            }
        }
    sort_keys(k, c, n == 3);
    return c;
}

/* the n-grams of order n (1..3) of g, sorted (malloc'd); count in *cnt; NULL on memory error */
static Key *grams(G *g, int n, Py_ssize_t *cnt) {
    Key *k = malloc(sizeof(Key) * (grams_size(g, n) + 1));
    if (!k) { PyErr_NoMemory(); return NULL; }
    *cnt = grams_into(g, n, k);
    return k;
}

/* grams into a buffer kept from call to call (grown as needed); NULL on memory error (no
 * Python call: it runs without the GIL) */
static Key *grams_buf(const G *g, int n, Py_ssize_t *cnt, Key **buf, Py_ssize_t *cap) {
    Py_ssize_t size = grams_size(g, n) + 1;
    if (size > *cap) {
        Key *k = realloc(*buf, sizeof(Key) * (size_t)(2 * size));
        if (!k) return NULL;
        *buf = k;
        *cap = 2 * size;
    }
    *cnt = grams_into(g, n, *buf);
    return *buf;
}

/* sum over the distinct n-grams of hyp of min(count in hyp, count in ref) */
static Py_ssize_t clipped(const Key *ref, Py_ssize_t nr, const Key *hyp, Py_ssize_t nh) {
    Py_ssize_t i = 0, j = 0, total = 0;
    while (i < nr && j < nh) {
        if (key_less(&ref[i], &hyp[j])) i++;
        else if (key_less(&hyp[j], &ref[i])) j++;
        else {
            Py_ssize_t a = 0, b = 0;
            Key key = ref[i];
            while (i < nr && ref[i].hi == key.hi && ref[i].lo == key.lo) { a++; i++; }
            while (j < nh && hyp[j].hi == key.hi && hyp[j].lo == key.lo) { b++; j++; }
            total += a < b ? a : b;
        }
    }
    return total;
}

static PyObject *k_row(PyObject *self, PyObject *args) {
    PyObject *na, *ia, *aa, *ra, *nb, *ib, *ab, *rb;
    int k;
    if (!PyArg_ParseTuple(args, "OOOOOOOOi", &na, &ia, &aa, &ra, &nb, &ib, &ab, &rb, &k)) return NULL;
    if (k < 1 || k > 3) Py_RETURN_NONE;
    PyObject *strings = PyDict_New();
    if (!strings) return NULL;
    PyObject *result = NULL;
    G a, b;
    memset(&a, 0, sizeof(a)); memset(&b, 0, sizeof(b));
    Py_ssize_t num[3] = {0, 0, 0}, den[3] = {0, 0, 0};
    PyObject *empty_s = PyUnicode_FromString("");
    if (!empty_s) goto done;
    int64_t empty = intern_obj(strings, empty_s);
    Py_DECREF(empty_s);
    if (empty < 0) goto done;
    int rc = g_build(&a, na, ia, aa, ra, strings, empty);
    if (rc < 0) goto done;
    if (rc == 0) { result = Py_None; Py_INCREF(result); goto done; }
    rc = g_build(&b, nb, ib, ab, rb, strings, empty);
    if (rc < 0) goto done;
    if (rc == 0) { result = Py_None; Py_INCREF(result); goto done; }
    if (PyDict_GET_SIZE(strings) >= ((Py_ssize_t)1 << 21)) { result = Py_None; Py_INCREF(result); goto done; }
    for (int n = 1; n <= k; n++) {
        Py_ssize_t cr, ch;
        Key *ref = grams(&a, n, &cr);
        if (!ref) goto done;
        Key *hyp = grams(&b, n, &ch);
        if (!hyp) { free(ref); goto done; }
        num[n - 1] = clipped(ref, cr, hyp, ch);
        den[n - 1] = ch;
        free(ref); free(hyp);
    }
    result = PyList_New(2 * k + 2);
    if (!result) goto done;
    for (int n = 0; n < k; n++) {
        PyObject *x = PyLong_FromSsize_t(num[n]);
        PyObject *y = PyLong_FromSsize_t(den[n]);
        if (!x || !y) { Py_XDECREF(x); Py_XDECREF(y); Py_CLEAR(result); goto done; }
        PyList_SET_ITEM(result, n, x);
        PyList_SET_ITEM(result, k + n, y);
    }
    PyObject *hl = PyLong_FromSsize_t(b.n + b.m), *rl = PyLong_FromSsize_t(a.n + a.m);
    if (!hl || !rl) { Py_XDECREF(hl); Py_XDECREF(rl); Py_CLEAR(result); goto done; }
    PyList_SET_ITEM(result, 2 * k, hl);
    PyList_SET_ITEM(result, 2 * k + 1, rl);
done:
    g_free(&a); g_free(&b);
    Py_DECREF(strings);
    return result;
}

/* ------------------------------------------------------------ coded pairs
 *
 *   sembleu_codes(codes, pairs, k) -> bytes of int64, 2k + 2 per pair (the row of
 *                                     sembleu_row); -1 in the first column: not counted
 *                                     here (a refused pair; the caller counts it)
 *
 * sembleu_row of many pairs given by the int64 codes of
 * mrkit.features._triples.pair_codes (see _codes.h).  The n-grams pack string numbers
 * into 21-bit fields: a pair with a number of 2^21 or more is left to the caller. */



static int too_big(const G *g) {
    for (Py_ssize_t v = 0; v < g->n; v++) if (g->label[v] >= ((int64_t)1 << 21)) return 1;
    for (Py_ssize_t e = 0; e < g->m; e++) if (g->er[e] >= ((int64_t)1 << 21)) return 1;
    return 0;
}

/* G of a coded graph (g_build_codes) in one buffer kept from pair to pair (*buf, *cap
 * 8-byte words; not to be g_free'd); 0 ok, -1 memory */
static int g_codes_in(G *g, const cgraph *c, int64_t **buf, size_t *cap) {
    Py_ssize_t n = (Py_ssize_t)(c->n + c->na), m = (Py_ssize_t)(c->nr + c->na);
    size_t need = (size_t)(3 * n + 5 * m + 8);
    if (need > *cap) {
        int64_t *b = realloc(*buf, sizeof(int64_t) * 2 * need);
        if (!b) return -1;
        *buf = b;
        *cap = 2 * need;
    }
    _Static_assert(sizeof(Py_ssize_t) == sizeof(int64_t), "8-byte words");
    int64_t *p = *buf;
    g->n = n;
    g->m = m;
    g->label = p; p += n + 1;
    g->es = p; p += m + 1;
    g->er = p; p += m + 1;
    g->et = p; p += m + 1;
    g->off = (Py_ssize_t *)p; p += n + 2;
    g->out = (Py_ssize_t *)p; p += m + 1;
    cg_fill(c, g->label, g->es, g->er, g->et);
    memset(g->off, 0, sizeof(Py_ssize_t) * (size_t)(n + 2));
    g_csr(g, (Py_ssize_t *)p);   /* n + 1 words */
    return 0;
}

static PyObject *sembleu_codes_of(const int64_t *p, const int64_t *end, Py_ssize_t pairs, int k) {
    if (pairs < 0 || k < 1 || k > 3) return codes_malformed();
    Py_ssize_t w = 2 * k + 2;
    PyObject *res = PyBytes_FromStringAndSize(NULL, pairs * w * (Py_ssize_t)sizeof(int64_t));
    if (!res) return NULL;
    int64_t *o = (int64_t *)PyBytes_AS_STRING(res);
    memset(o, 0, (size_t)(pairs * w) * sizeof(int64_t));
    Key *kbuf[2] = {NULL, NULL};   /* the n-grams of the gold and the system graph */
    Py_ssize_t kcap[2] = {0, 0};
    int64_t *gbuf[2] = {NULL, NULL};   /* the two graphs */
    size_t gcap[2] = {0, 0};
    int bad = 0;   /* 1 malformed, 2 memory */
    Py_BEGIN_ALLOW_THREADS   /* C memory only: another thread may run meanwhile */
    for (Py_ssize_t q = 0; q < pairs; q++) {
        cgraph ca, cb;
        int64_t *row = o + q * w;
        if (cg_read(&p, end, &ca) < 0 || cg_read(&p, end, &cb) < 0) { bad = 1; break; }
        if (ca.n < 0 || cb.n < 0) { row[0] = -1; continue; }
        G a, b;
        int fail = g_codes_in(&a, &ca, &gbuf[0], &gcap[0]) < 0 || g_codes_in(&b, &cb, &gbuf[1], &gcap[1]) < 0;
        if (!fail && (too_big(&a) || too_big(&b))) { row[0] = -1; continue; }
        for (int n = 1; n <= k && !fail; n++) {
            Py_ssize_t cr, ch;
            Key *ref = grams_buf(&a, n, &cr, &kbuf[0], &kcap[0]);
            Key *hyp = ref ? grams_buf(&b, n, &ch, &kbuf[1], &kcap[1]) : NULL;
            if (!ref || !hyp) { fail = 1; break; }
            row[n - 1] = clipped(ref, cr, hyp, ch);
            row[k + n - 1] = ch;
        }
        if (fail) { bad = 2; break; }
        row[2 * k] = b.n + b.m;
        row[2 * k + 1] = a.n + a.m;
    }
    if (!bad && p != end) bad = 1;
    free(kbuf[0]); free(kbuf[1]); free(gbuf[0]); free(gbuf[1]);
    Py_END_ALLOW_THREADS
    if (bad) {
        Py_DECREF(res);
        return bad == 1 ? codes_malformed() : PyErr_NoMemory();
    }
    return res;
}

/* ------------------------------------------------------------ per-pair BLEU
 *
 *   bleu_f1(columns, weights) -> bytes of double, one per row
 *
 * sembleu.bleu_scalar_reducer(weights) of every row of the 2K + 2 columns (int64 buffers:
 * matches of orders 1..K, totals of orders 1..K, system length, gold length; K =
 * len(weights)), in the same double operations in the same order (pow, log and exp of the
 * C library, which Python's float ** and math module call too), tested to the bit against
 * the Python. */

#include <math.h>

static double bleu_row(const double *s, int K, const double *weights) {
    const double *num = s, *den = s + K;
    double hyp = s[2 * K], ref = s[2 * K + 1];
    int ok = hyp > 0 && num[0] > 0;
    int max_gram = 0;
    for (int n = 1; n <= K; n++) {
        int v = den[n - 1] > 0 ? n : 0;
        if (v > max_gram) max_gram = v;
    }
    int reweigh = max_gram < K;
    double safe_gram = (double)(max_gram > 1 ? max_gram : 1);
    double safe_hyp = hyp > 0 ? hyp : 1.0;
    double bp = hyp > ref ? 1.0 : exp(1.0 - ref / safe_hyp);
    double logs = 0.0, inc = 1.0;
    for (int n = 1; n <= K; n++) {
        int active = ok && n <= (reweigh ? max_gram : K);
        double w = reweigh ? 1.0 / safe_gram : weights[n - 1];
        int zero = num[n - 1] == 0;
        double p;
        if (zero) {
            double d = den[n - 1] > 1.0 ? den[n - 1] : 1.0;
            p = 1.0 / (pow(2.0, inc) * d);
        } else {
            p = num[n - 1] / (den[n - 1] > 0 ? den[n - 1] : 1.0);
        }
        inc = inc + (zero && active ? 1.0 : 0.0);
        if (active) logs = logs + w * log(p);
    }
    if (ok) return bp * exp(logs);
    return hyp == 0 ? (ref == 0 ? 1.0 : 0.0) : 0.0;
}

static PyObject *k_bleu_f1(PyObject *self, PyObject *args) {
    PyObject *cols, *wobj;
    if (!PyArg_ParseTuple(args, "OO", &cols, &wobj)) return NULL;
    PyObject *wl = PySequence_Fast(wobj, "weights: a sequence");
    if (!wl) return NULL;
    Py_ssize_t K = PySequence_Fast_GET_SIZE(wl);
    if (K < 1 || K > 64) { Py_DECREF(wl); PyErr_SetString(PyExc_ValueError, "bleu_f1: 1 to 64 weights"); return NULL; }
    double weights[64];
    for (Py_ssize_t n = 0; n < K; n++) {
        weights[n] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(wl, n));
        if (weights[n] == -1.0 && PyErr_Occurred()) { Py_DECREF(wl); return NULL; }
    }
    Py_DECREF(wl);
    PyObject *cl = PySequence_Fast(cols, "columns: a sequence");
    if (!cl) return NULL;
    Py_ssize_t W = 2 * K + 2;
    if (PySequence_Fast_GET_SIZE(cl) != W) {
        Py_DECREF(cl);
        PyErr_SetString(PyExc_ValueError, "bleu_f1: 2 len(weights) + 2 columns");
        return NULL;
    }
    Py_buffer views[130];
    Py_ssize_t got = 0, rows = -1;
    PyObject *res = NULL;
    for (; got < W; got++) {
        if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(cl, got), &views[got], PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
            goto done;
        Py_buffer *v = &views[got];
        if (v->itemsize != 8 || !v->format || (strcmp(v->format, "q") != 0 && strcmp(v->format, "l") != 0)) {
            got++;
            PyErr_SetString(PyExc_ValueError, "bleu_f1: columns of int64");
            goto done;
        }
        Py_ssize_t r = v->len / 8;
        if (rows >= 0 && r != rows) { got++; PyErr_SetString(PyExc_ValueError, "bleu_f1: columns of different lengths"); goto done; }
        rows = r;
    }
    if (rows < 0) rows = 0;
    res = PyBytes_FromStringAndSize(NULL, rows * (Py_ssize_t)sizeof(double));
    if (!res) goto done;
    double *o = (double *)PyBytes_AS_STRING(res);
    double s[130];
    for (Py_ssize_t i = 0; i < rows; i++) {
        for (Py_ssize_t j = 0; j < W; j++) s[j] = (double)((const int64_t *)views[j].buf)[i];
        o[i] = bleu_row(s, (int)K, weights);
    }
done:
    for (Py_ssize_t j = 0; j < got; j++) PyBuffer_Release(&views[j]);
    Py_DECREF(cl);
    return res;
}

CODES_KERNEL(k_codes, "y*ni", sembleu_codes_of)

static PyMethodDef methods[] = {
    {"sembleu_row", k_row, METH_VARARGS,
     "sembleu_row(n_a, instances_a, attributes_a, relations_a, n_b, ..., k): SemBLEU row of one pair, or None"},
    {"sembleu_codes", k_codes, METH_VARARGS,
     "sembleu_codes(codes, pairs, k) -> bytes of int64 rows (2k + 2 per pair; -1 first: not counted)"},
    {"bleu_f1", k_bleu_f1, METH_VARARGS,
     "bleu_f1(columns, weights) -> bytes of double: bleu_scalar_reducer(weights) of every row"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_sembleu",
                                       "The SemBLEU counts of one pair of graphs given by their Smatch triples.",
                                       -1, methods};

PyMODINIT_FUNC PyInit__sembleu(void) { return PyModule_Create(&moduledef); }
