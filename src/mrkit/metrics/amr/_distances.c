/*
 * mrkit.metrics._distances: Euclidean distance matrices of many pairs of node sets in
 * one call (WWLK).  scipy's cdist costs more in call overhead than in arithmetic on the
 * small node sets of sentence graphs, and WWLK needs one matrix per graph pair.
 *
 *   pairwise(A, B, dim, a_start, a_end, b_start, b_end, n_pairs, out)
 *
 * A, B: float64 row-major (rows x dim); a_start, a_end, b_start, b_end: int64, n_pairs
 * each; pair p is rows a_start[p] .. a_end[p] of A against rows b_start[p] .. b_end[p]
 * of B; out: float64, the na * nb distances of pair 0, then of pair 1, ... (row-major).
 * Every distance is sqrt(sum_k (a_k - b_k)^2), summed in four interleaved partial sums.
 * Buffers go through the buffer protocol (C-contiguous numpy arrays); no numpy headers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>

/* count < 0: any number of items */
static int get_buf(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t count,
                   int writable, const char *name) {
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) return -1;
    if (view->itemsize != itemsize || (count >= 0 && view->len != itemsize * count)) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items of %zd bytes, got %zd bytes",
                     name, count, itemsize, view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static double distance(const double *a, const double *b, Py_ssize_t dim) {
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    Py_ssize_t k = 0;
    for (; k + 4 <= dim; k += 4) {
        double d0 = a[k] - b[k], d1 = a[k + 1] - b[k + 1];
        double d2 = a[k + 2] - b[k + 2], d3 = a[k + 3] - b[k + 3];
        s0 += d0 * d0;
        s1 += d1 * d1;
        s2 += d2 * d2;
        s3 += d3 * d3;
    }
    for (; k < dim; k++) {
        double d = a[k] - b[k];
        s0 += d * d;
    }
    return sqrt((s0 + s1) + (s2 + s3));
}

static PyObject *k_pairwise(PyObject *self, PyObject *args) {
    PyObject *oa, *ob, *oout, *orng[4];
    Py_ssize_t dim, n_pairs;
    if (!PyArg_ParseTuple(args, "OOnOOOOnO", &oa, &ob, &dim, &orng[0], &orng[1], &orng[2], &orng[3],
                          &n_pairs, &oout))
        return NULL;
    if (dim < 0 || n_pairs < 0) {
        PyErr_SetString(PyExc_ValueError, "dim and n_pairs must be >= 0");
        return NULL;
    }
    const char *names[4] = {"a_start", "a_end", "b_start", "b_end"};
    Py_buffer R[4], A, B, OUT;
    int got = 0;
    for (; got < 4; got++)
        if (get_buf(orng[got], &R[got], 8, n_pairs, 0, names[got]) < 0) goto fail;
    const int64_t *as = R[0].buf, *ae = R[1].buf, *bs = R[2].buf, *be = R[3].buf;
    if (get_buf(oa, &A, 8, -1, 0, "A") < 0) goto fail;
    if (get_buf(ob, &B, 8, -1, 0, "B") < 0) { PyBuffer_Release(&A); goto fail; }
    Py_ssize_t rows_a = dim ? A.len / 8 / dim : 0, rows_b = dim ? B.len / 8 / dim : 0, cells = 0;
    for (Py_ssize_t p = 0; p < n_pairs; p++) {
        if (as[p] < 0 || ae[p] < as[p] || ae[p] > rows_a || bs[p] < 0 || be[p] < bs[p] || be[p] > rows_b) {
            PyErr_Format(PyExc_ValueError, "pair %zd: row range outside A or B", p);
            goto fail_ab;
        }
        cells += (Py_ssize_t)((ae[p] - as[p]) * (be[p] - bs[p]));
    }
    if (get_buf(oout, &OUT, 8, cells, 1, "out") < 0) goto fail_ab;
    const double *a = A.buf, *b = B.buf;
    double *out = OUT.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t p = 0; p < n_pairs; p++)
        for (int64_t i = as[p]; i < ae[p]; i++)
            for (int64_t j = bs[p]; j < be[p]; j++)
                *out++ = distance(a + i * dim, b + j * dim, dim);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&OUT);
    PyBuffer_Release(&A);
    PyBuffer_Release(&B);
    for (int k = 0; k < 4; k++) PyBuffer_Release(&R[k]);
    Py_RETURN_NONE;
fail_ab:
    PyBuffer_Release(&A);
    PyBuffer_Release(&B);
fail:
    for (int k = 0; k < got; k++) PyBuffer_Release(&R[k]);
    return NULL;
}

static PyMethodDef methods[] = {
    {"pairwise", k_pairwise, METH_VARARGS,
     "pairwise(A, B, dim, a_start, a_end, b_start, b_end, n_pairs, out): Euclidean distances of many pairs"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_distances",
                                       "Euclidean distance matrices of many node-set pairs (WWLK).",
                                       -1, methods};

PyMODINIT_FUNC PyInit__distances(void) { return PyModule_Create(&moduledef); }
