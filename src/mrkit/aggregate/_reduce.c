/*
 * mrkit.aggregate._reduce: the per-pair statistics of a corpus result and their means,
 * the compiled twin of mrkit.aggregate.reducers._prf_columns / _mean_columns and of
 * mrkit.aggregate.corpus.pairwise_sum (tested equal to the bit against them, and the mean
 * against numpy's np.mean).
 *
 *   prf_column(which, m, g, s, ints) -> bytes of double per row, or None
 *       which 0: precision, 1: recall, 2: F1 of the columns (matched, gold, system), each
 *       a C-contiguous buffer of int64 ("q"/"l") or float64 ("d"); bit k of ints set: column
 *       k holds Python ints (an array('q'): the Python divides int by int), else floats.
 *       Row by row exactly _prf_scalar's operations:
 *           p = m / s if s > 0 else (1.0 if g == 0 else 0.0)
 *           r = m / g if g > 0 else (1.0 if s == 0 else 0.0)
 *           f = 2 * m / (g + s) if g + s > 0 else 1.0
 *       None (the Python then does it) when an int64 value is beyond 2^53 in magnitude or,
 *       for two int columns g and s, when g + s is not a double: there the Python's ints are
 *       not all exact doubles, and its int / int rounds once where doubles would round twice.
 *       Within them every int is its exact double, int / int is the one correctly rounded
 *       double division, 2 * m is exact, and g + s of two ints is the double sum.
 *   ratio_column(x, w) -> bytes of double per row, or None
 *       float(x) / float(w) if w > 0 else NaN (mrkit.aggregate.reducers._mean_columns),
 *       None for an int64 value beyond 2^53.
 *   mean(values) -> float, or None for a buffer that is not float64
 *       numpy's pairwise summation of the values (blocks of 8 partial sums up to 128
 *       values, halves above: numpy's pairwise_sum of a contiguous float64 array, which
 *       mrkit.aggregate.corpus.pairwise_sum reproduces) divided by their number; NaN for none.
 *   builtin_sum(values) -> float, or None for a buffer that is not float64
 *       the builtin sum() of the values as a list of floats on this interpreter: one
 *       addition after another from 0 before Python 3.12, Neumaier's compensated sum from
 *       3.12 on (the C loop of CPython's builtin_sum_impl, after its int start 0 + the first
 *       value).  0.0 for none (the builtin gives the int 0: callers handle no values).
 *
 * Built with -ffp-contract=off: no multiply and add fused into one rounding anywhere, so the
 * bits are those of the separate operations of Python and numpy on every platform.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXACT_LIMIT 9007199254740992LL /* 2^53: every int64 up to it in magnitude is a double */

enum { K_DOUBLE = 0, K_INT = 1 };

typedef struct {
    Py_buffer view;
    int held;
    int kind;       /* K_DOUBLE or K_INT (the storage) */
    Py_ssize_t n;
} column;

/* the buffer's element type from its struct format: 1 int64, 0 float64, -1 other */
static int element_kind(const Py_buffer *v) {
    const char *f = v->format;
    if (!f || v->itemsize != 8) return -1;
    if (*f == '@' || *f == '=') f++;
    if (strcmp(f, "d") == 0) return K_DOUBLE;
    if (strcmp(f, "q") == 0 || (strcmp(f, "l") == 0 && sizeof(long) == 8)) return K_INT;
    return -1;
}

/* 1: c holds the buffer of obj (release with drop); 0: obj is no usable buffer (no error
 * left set: the caller answers None and the Python does it); -1: error */
static int take(PyObject *obj, column *c) {
    c->held = 0;
    if (PyObject_GetBuffer(obj, &c->view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_BufferError)
            || PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            return 0;
        }
        return -1;
    }
    c->held = 1;
    c->kind = element_kind(&c->view);
    if (c->kind < 0 || c->view.ndim > 1) return 0;
    c->n = c->view.len / 8;
    return 1;
}

static void drop(column *c) {
    if (c->held) PyBuffer_Release(&c->view);
    c->held = 0;
}

/* whether every int64 of c is within 2^53 in magnitude (a float64 column: yes) */
static int within(const column *c) {
    if (c->kind != K_INT) return 1;
    const int64_t *p = (const int64_t *)c->view.buf;
    for (Py_ssize_t i = 0; i < c->n; i++)
        if (p[i] > EXACT_LIMIT || p[i] < -EXACT_LIMIT) return 0;
    return 1;
}

static inline double value(const column *c, Py_ssize_t i) {
    return c->kind == K_DOUBLE ? ((const double *)c->view.buf)[i] : (double)((const int64_t *)c->view.buf)[i];
}

/* for two int columns (the Python adds them as ints, then divides int by int): whether
 * every g + s is a double, i.e. the double sum is the exact one (values within 2^53) */
static int sums_exact(const column *g, const column *s) {
    const int64_t *a = (const int64_t *)g->view.buf, *b = (const int64_t *)s->view.buf;
    for (Py_ssize_t i = 0; i < g->n; i++) {
        int64_t t = a[i] + b[i]; /* no overflow: both within 2^53 */
        if ((t > EXACT_LIMIT || t < -EXACT_LIMIT) && (int64_t)(double)t != t) return 0;
    }
    return 1;
}

static void prf_rows(int which, const column *m, const column *g, const column *s, double *out) {
    Py_ssize_t n = m->n;
    for (Py_ssize_t i = 0; i < n; i++) {
        double mi = value(m, i), gi = value(g, i), si = value(s, i);
        double r;
        if (which == 0) {
            r = si > 0 ? mi / si : (gi == 0 ? 1.0 : 0.0);
        } else if (which == 1) {
            r = gi > 0 ? mi / gi : (si == 0 ? 1.0 : 0.0);
        } else {
            double d = gi + si;
            if (d > 0) {
                double twice = 2.0 * mi;
                r = twice / d;
            } else {
                r = 1.0;
            }
        }
        out[i] = r;
    }
}

/* numpy's pairwise_sum of n contiguous doubles (loops_utils.h.src), operation for operation */
static double pairwise(const double *a, Py_ssize_t n) {
    if (n < 8) {
        double res = 0.;
        for (Py_ssize_t i = 0; i < n; i++) res += a[i];
        return res;
    } else if (n <= 128) {
        double r[8], res;
        Py_ssize_t i;
        for (int j = 0; j < 8; j++) r[j] = a[j];
        for (i = 8; i < n - (n % 8); i += 8) {
            r[0] += a[i + 0];
            r[1] += a[i + 1];
            r[2] += a[i + 2];
            r[3] += a[i + 3];
            r[4] += a[i + 4];
            r[5] += a[i + 5];
            r[6] += a[i + 6];
            r[7] += a[i + 7];
        }
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) res += a[i];
        return res;
    } else {
        Py_ssize_t n2 = n / 2;
        n2 -= n2 % 8;
        return pairwise(a, n2) + pairwise(a + n2, n - n2);
    }
}

static double mean_of(const double *a, Py_ssize_t n) {
    if (n == 0) return Py_NAN;
    return pairwise(a, n) / (double)n;
}

/* the three columns of a prf call: 1 usable (views held), 0 answer None, -1 error */
static int take_prf(PyObject *mo, PyObject *go, PyObject *so, long ints, column c[3]) {
    PyObject *objs[3] = {mo, go, so};
    for (int k = 0; k < 3; k++) c[k].held = 0;
    for (int k = 0; k < 3; k++) {
        int ok = take(objs[k], &c[k]);
        if (ok <= 0) return ok;
        /* an int column of the Python is an array('q'): its storage is int64 */
        if ((ints >> k & 1) && c[k].kind != K_INT) return 0;
    }
    if (c[1].n != c[0].n || c[2].n != c[0].n) {
        PyErr_SetString(PyExc_ValueError, "prf: columns of different lengths");
        return -1;
    }
    for (int k = 0; k < 3; k++)
        if (!within(&c[k])) return 0;
    if ((ints & 6) == 6 && !sums_exact(&c[1], &c[2])) return 0;
    return 1;
}

static PyObject *k_prf_column(PyObject *self, PyObject *args) {
    int which;
    PyObject *mo, *go, *so;
    long ints;
    if (!PyArg_ParseTuple(args, "iOOOl", &which, &mo, &go, &so, &ints)) return NULL;
    if (which < 0 || which > 2) {
        PyErr_SetString(PyExc_ValueError, "prf_column: which is 0 (precision), 1 (recall) or 2 (F1)");
        return NULL;
    }
    column c[3];
    PyObject *res = NULL;
    int ok = take_prf(mo, go, so, ints, c);
    if (ok < 0) goto done;
    if (ok == 0) {
        res = Py_NewRef(Py_None);
        goto done;
    }
    res = PyBytes_FromStringAndSize(NULL, c[0].n * (Py_ssize_t)sizeof(double));
    if (!res) goto done;
    double *out = (double *)PyBytes_AS_STRING(res);
    Py_BEGIN_ALLOW_THREADS   /* the views pin the buffers: another thread may run meanwhile */
    prf_rows(which, &c[0], &c[1], &c[2], out);
    Py_END_ALLOW_THREADS
done:
    for (int k = 0; k < 3; k++) drop(&c[k]);
    return res;
}

static PyObject *k_ratio_column(PyObject *self, PyObject *args) {
    PyObject *xo, *wo;
    if (!PyArg_ParseTuple(args, "OO", &xo, &wo)) return NULL;
    column c[2];
    c[0].held = c[1].held = 0;
    PyObject *res = NULL;
    int ok = take(xo, &c[0]);
    if (ok > 0) ok = take(wo, &c[1]);
    if (ok < 0) goto done;
    if (ok > 0 && c[0].n != c[1].n) {
        PyErr_SetString(PyExc_ValueError, "ratio_column: columns of different lengths");
        goto done;
    }
    if (ok == 0 || !within(&c[0]) || !within(&c[1])) {
        res = Py_NewRef(Py_None);
        goto done;
    }
    Py_ssize_t n = c[0].n;
    res = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(double));
    if (!res) goto done;
    double *out = (double *)PyBytes_AS_STRING(res);
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        double x = value(&c[0], i), w = value(&c[1], i);
        out[i] = w > 0 ? x / w : Py_NAN;
    }
    Py_END_ALLOW_THREADS
done:
    drop(&c[0]);
    drop(&c[1]);
    return res;
}

/* a float64 buffer's values: 1 (view held), 0 answer None, -1 error */
static int take_doubles(PyObject *obj, column *c) {
    int ok = take(obj, c);
    if (ok > 0 && c->kind != K_DOUBLE) ok = 0;
    return ok;
}

/* fn of a float64 buffer's values, the GIL let go; None when obj is not such a buffer */
static PyObject *of_doubles(PyObject *obj, double (*fn)(const double *, Py_ssize_t)) {
    column c;
    int ok = take_doubles(obj, &c);
    PyObject *res = NULL;
    if (ok > 0) {
        double v;
        Py_BEGIN_ALLOW_THREADS
        v = fn((const double *)c.view.buf, c.n);
        Py_END_ALLOW_THREADS
        res = PyFloat_FromDouble(v);
    } else if (ok == 0) {
        res = Py_NewRef(Py_None);
    }
    drop(&c);
    return res;
}

static PyObject *k_mean(PyObject *self, PyObject *obj) {
    (void)self;
    return of_doubles(obj, mean_of);
}

static double builtin_sum(const double *a, Py_ssize_t n) {
    if (n == 0) return 0.0;
    double f = 0.0 + a[0]; /* the int start 0 + the first float */
#if PY_VERSION_HEX >= 0x030C0000
    /* CPython 3.12+: Neumaier's improvement of Kahan-Babuska summation */
    double c = 0.0;
    for (Py_ssize_t i = 1; i < n; i++) {
        double x = a[i];
        double t = f + x;
        if (fabs(f) >= fabs(x)) {
            c += (f - t) + x;
        } else {
            c += (x - t) + f;
        }
        f = t;
    }
    if (c && isfinite(c)) f += c;
#else
    for (Py_ssize_t i = 1; i < n; i++) f += a[i];
#endif
    return f;
}

static PyObject *k_builtin_sum(PyObject *self, PyObject *obj) {
    (void)self;
    return of_doubles(obj, builtin_sum);
}

static PyMethodDef methods[] = {
    {"prf_column", k_prf_column, METH_VARARGS,
     "prf_column(which, m, g, s, ints) -> bytes of double (0 precision, 1 recall, 2 F1 of every row), or None"},
    {"ratio_column", k_ratio_column, METH_VARARGS,
     "ratio_column(x, w) -> bytes of double: x / w where w > 0, else NaN; or None"},
    {"mean", k_mean, METH_O, "mean(values) -> numpy's mean of a float64 buffer (pairwise summation), or None"},
    {"builtin_sum", k_builtin_sum, METH_O,
     "builtin_sum(values) -> sum() of a float64 buffer's values as this Python adds floats, or None"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_reduce",
                                       "Per-pair precision, recall and F1 columns and their means, to the bit.",
                                       -1, methods};

PyMODINIT_FUNC PyInit__reduce(void) { return PyModule_Create(&moduledef); }
