"""The Cython engine: one pass over the header bytes into C structs.

The grammar (``_grammar``, ``_member``, docs/rules.md), the error codes and
positions, and every result are those of the pure-Python twin ``_scan_py``;
the differential tests hold the two to that. Input is read in place: a
``str`` whose characters are all Latin-1 through its internal one-byte buffer,
``bytes`` through its buffer. Negotiation matches the pre-parsed offers
against the C structs, so it creates no Python object per media range.
"""

cimport cython
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.mem cimport PyMem_Calloc, PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_DECREF, Py_INCREF, Py_XDECREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.unicode cimport PyUnicode_1BYTE_KIND, PyUnicode_DATA, PyUnicode_DecodeLatin1
from cpython.unicode cimport PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_READ
from libc.string cimport memcmp, memcpy, memset

cdef extern from "Python.h":
    const Py_ssize_t PY_SSIZE_T_MAX
    # Borrowed references, for identity tests without reference counting.
    PyObject** PySequence_Fast_ITEMS(PyObject*)
    Py_ssize_t PyList_GET_SIZE(PyObject*)
    Py_ssize_t PyTuple_GET_SIZE(PyObject*)
    PyObject* PyTuple_GET_ITEM(PyObject*, Py_ssize_t)
    PyTypeObject PyList_Type
    int PyUnicode_Compare(PyObject* left, PyObject* right) except? -1
    # A legacy str (3.10, 3.11) has no data until made ready (1 and 0 after).
    bint PyUnicode_IS_READY(object)
    int PyUnicode_READY(object) except -1
    ctypedef struct TypeWithNew "PyTypeObject":
        PyObject* (*tp_new)(PyTypeObject*, PyObject*, PyObject*)
    ctypedef struct PyMethodDef:  # a built-in's entry in a method table
        const char* ml_name
        void* ml_meth
        int ml_flags
        const char* ml_doc
    int METH_FASTCALL
    int METH_KEYWORDS
    void PyObject_GC_Track(object)
    void PyObject_GC_UnTrack(object)

from functools import partial as _partial
from sys import intern as _intern, modules as _modules
from _thread import _local as _thread_local  # threading.local, without importing threading

from . import _grammar, _language, _lists, _match  # read at import only
from ._arguments import ByArguments as _ByArguments
from ._arguments import encoding_negotiator_arguments as _encoding_negotiator_arguments
from ._arguments import language_negotiator_arguments as _language_negotiator_arguments
from ._arguments import negotiator_arguments as _negotiator_arguments
from ._coding import ALIASES as _ALIASES, IDENTITY as _IDENTITY
from ._errors import ACCEPT as _ACCEPT, AcceptError as _AcceptError, reason as _reason, too_long as _too_long
from ._limits import BYTES_CACHED as _BYTES_CACHED, COMPILED_VALUES_KEPT as _COMPILED_VALUES_KEPT
from ._limits import DEFAULT_CACHE_SIZE as _DEFAULT_CACHE_SIZE  # no-cython-lint (the docstrings' signatures name it)
from ._limits import DEFAULT_MAX_LENGTH as _DEFAULT_MAX_LENGTH, THREADS_AT_ONCE as _THREADS_AT_ONCE
from ._limits import checked_cache_size as _checked_cache_size, checked_flag as _checked_flag
from ._limits import checked_max_length as _checked_max_length
from ._limits import kept_negotiator as _kept_negotiator, store as _store, ThreadCache as _ThreadCache
from ._match import OfferSet as _OfferSet, OfferTables as _OfferTables
from ._member import offer_value as _offer_value, offers_tuple as _offers_tuple, parse_offers as _parse_offers
from ._text import as_header_text as _as_header_text, coerce_value as _coerce_value
from ._types import Accept as _Accept, AcceptEncoding as _AcceptEncoding, AcceptLanguage as _AcceptLanguage
from ._types import MediaRange as _MediaRange, Unexplained as _Unexplained
from ._types import media_type_negotiator as _media_type_negotiator

# Free-threaded CPython: the module declares that it runs without the GIL
# (setup.py: freethreading_compatible), as its shared state allows:
# - CLASS, LOWER, _ABSENT: written during import only.
# - a negotiator: complete when made (``__cinit__``), never changed after;
#   its value cache is a dict per thread where threads run at once
#   (``_limits.ThreadCache``, found through each thread's memo: ``fa_found``),
#   else one dict (``_limits.store``'s policy).
# - negotiate()/quality(), negotiate_encoding(), negotiate_language(): the
#   kept negotiators and the last offers, one set in the module, or one per
#   thread where threads run at once.
cdef extern from *:
    """
    #include <string.h>
    #include <stdint.h>

    /* Whether s[0:len], ASCII letters folded to lower case, equals lower[0:len]. */
    static inline int fa_folded_bytes(const unsigned char *s, const unsigned char *lower,
                                      Py_ssize_t len) {
        Py_ssize_t i;
        unsigned char c;
        for (i = 0; i < len; i++) {
            c = s[i];
            if ((c >= 'A' && c <= 'Z' ? c | 0x20 : c) != lower[i]) return 0;
        }
        return 1;
    }

    /* A text kept for comparing (``hold``; lower case where it is compared
       folded), followed by 8 NULs, with the words ``fa_is`` compares: its
       first 8 bytes (``mask``: those of them that are its own) and its last 8. */
    typedef struct {
        const unsigned char *text;
        Py_ssize_t length;
        uint64_t head, mask, tail;
    } fa_text;

    static void fa_words(fa_text *t) {
        unsigned char ones[8] = {0};
        memset(ones, 0xFF, t->length < 8 ? (size_t)t->length : 8);
        memcpy(&t->mask, ones, 8);
        memcpy(&t->head, t->text, 8);
        t->head &= t->mask;
        memcpy(&t->tail, t->text + (t->length < 8 ? 0 : t->length - 8), 8);
    }

    /* Whether the span s[a:a+len] of a value (readable through s[n], the NUL
       that ends every scanned buffer), ASCII letters folded to lower case, is
       the kept text t of that length: by t's words, byte by byte only where
       they differ in no more than case (ASCII folding only sets bit 0x20). */
    static inline int fa_is(const unsigned char *s, Py_ssize_t a, Py_ssize_t n, const fa_text *t) {
        const uint64_t case_bits = 0x2020202020202020ULL;
        uint64_t x, y;
        Py_ssize_t len = t->length;
        if (len >= 8) {
            memcpy(&x, s + a, 8);
            memcpy(&y, s + a + len - 8, 8);  /* the last 8, overlapping */
            if (x == t->head && y == t->tail) {
                if (len <= 16 || memcmp(s + a + 8, t->text + 8, len - 16) == 0) return 1;
            } else if ((x | case_bits) != (t->head | case_bits) || (y | case_bits) != (t->tail | case_bits)) {
                return 0;
            }
        } else if (a + 8 <= n + 1) {
            memcpy(&x, s + a, 8);
            x &= t->mask;
            if (x == t->head) return 1;
            if ((x | case_bits) != (t->head | case_bits)) return 0;
        }
        return fa_folded_bytes(s + a, t->text, len);
    }

    #if defined(__GNUC__)  /* a test laid out for its rare outcome, off the hot path */
    #define fa_unlikely(x) __builtin_expect(!!(x), 0)
    #else
    #define fa_unlikely(x) (x)
    #endif

    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int fa_lowest_bit(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    #else
    #define fa_lowest_bit(x) __builtin_ctzll(x)
    #endif
    """
    ctypedef unsigned long long uint64_t
    ctypedef struct fa_text:
        const unsigned char* text
        Py_ssize_t length
    void fa_words(fa_text* t) noexcept nogil
    bint fa_is(const unsigned char* s, Py_ssize_t a, Py_ssize_t n, const fa_text* t) noexcept nogil
    int fa_lowest_bit(uint64_t x) noexcept nogil
    bint fa_unlikely(bint x) noexcept nogil

# Error codes: the numbers of ``_errors`` (a wrong one would give another
# message than the pure engine's, which the differential tests compare).
cdef enum:
    EXPECTED_TYPE = 1, EXPECTED_SLASH = 2, EXPECTED_SUBTYPE = 3, WILDCARD_TYPE = 4, BARE_WILDCARD = 5
    EXPECTED_SEPARATOR = 6, EXPECTED_PARAM_NAME = 7, EXPECTED_EQUALS = 8, EXPECTED_VALUE = 9
    UNTERMINATED_QUOTE = 10, BAD_QUOTED_CHAR = 11, BAD_ESCAPE = 12, BAD_WEIGHT = 13, SHORT_WEIGHT = 14
    DUPLICATE_PARAM = 15
    # Accept-Encoding and Accept-Language (RFC 9110 §12.5.3-4).
    EXPECTED_CODING = 16, EXPECTED_LANGUAGE = 17, EXPECTED_SUBTAG = 18, LONG_SUBTAG = 19
    EXPECTED_CODING_END = 20, EXPECTED_RANGE_END = 21, EXPECTED_WEIGHT = 22, EXPECTED_QVALUE = 23
    EXPECTED_COMMA = 24
    # Structured-syntax suffix ranges (RFC 6838 §4.2.8; rule 22).
    SUFFIX_WILDCARD_TYPE = 25, SUBTYPE_START = 26, EMPTY_SUFFIX = 27

# Character classes, one table lookup per byte: ``_grammar``'s sets.
cdef enum:
    C_TCHAR = 1     # token character, RFC 9110 §5.6.2
    C_QDTEXT = 2    # qdtext, RFC 9110 §5.6.4
    C_QPAIR = 4     # may follow a backslash in a quoted string
    C_UNSAFE = 8    # CORS-unsafe request-header byte (Fetch)
    C_ALPHA = 16    # ASCII letter (RFC 4647 language ranges)
    C_DIGIT = 32    # ASCII digit
    C_SEPARATOR = 64  # OWS or a comma between list members, RFC 9110 §5.6.1.2
    C_PLAIN = 128   # a skipped member's plain byte: any but a comma, '"' and NUL

cdef enum:
    PAIRWISE_LIMIT = 16  # parameters of a member checked for repeats pairwise; past it, a set
    SMALL = 16
    LONG_CHAIN = 8  # types sharing a first byte, or slots of a type its low five bits: walked, not split
    ON_STACK = 64  # offers whose per-call arrays fit on the stack
    TYPES_SET_AT_ONCE = 8  # types' wildcard weights reset by stores, not a loop (at most ON_STACK)

# The member grammars: the list headers' by ``_lists``' numbers
# (``ListHeader.grammar``), constants the C compiler folds into each scorer's
# inlined ``scan_item``; and Accept's (``_Kind``).
cdef enum:
    CODING_GRAMMAR = 0
    LANGUAGE_GRAMMAR = 1
    MEDIA_RANGES = 2

if (CODING_GRAMMAR, LANGUAGE_GRAMMAR) != (_lists.CODING_GRAMMAR, _lists.LANGUAGE_GRAMMAR):
    raise ImportError("_scan.pyx and _lists number the list grammars differently")
if _grammar.OWS_CHARS != " \t":
    raise ImportError("_scan.pyx's skip_ows reads SP and HTAB, not _grammar.OWS_CHARS")

cdef unsigned char CLASS[256]
cdef unsigned char LOWER[256]
cdef Py_ssize_t CORS_MAX_LENGTH = _grammar.CORS_MAX_LENGTH

for _c in range(256):
    CLASS[_c] = C_PLAIN if _c not in b',"\0' else 0
    LOWER[_c] = _c + 32 if 65 <= _c <= 90 else _c
for _chars, _class in ((_grammar.TCHARS, C_TCHAR), (_grammar.QDTEXT_CHARS, C_QDTEXT),
                       (_grammar.ESCAPABLE_CHARS, C_QPAIR), (_grammar.ALPHA, C_ALPHA),
                       (_grammar.DIGIT, C_DIGIT), (_grammar.LIST_SEPARATOR_CHARS, C_SEPARATOR),
                       (map(chr, _grammar.CORS_UNSAFE_BYTES), C_UNSAFE)):
    for _char in _chars:
        CLASS[ord(_char)] |= _class


cdef struct Param:
    Py_ssize_t name_start, name_end
    Py_ssize_t value_start, value_end    # inside the quotes for a quoted value
    bint escaped                         # a quoted value with backslash escapes

cdef struct Range:
    Py_ssize_t type_start, type_end, sub_start, sub_end
    Py_ssize_t first_param, n_params
    int weight                           # thousandths
    int parts                            # what it names of type/subtype (PARTS_ANY...)

cdef struct Skip:
    Py_ssize_t start, end, pos
    int code

cdef struct OfferParam:
    fa_text name
    fa_text value                        # as given (lower-case if ``fold``)
    bint fold                            # charset: compare case-insensitively

cdef struct COffer:
    OfferParam* params
    Py_ssize_t n_params
    int qs                               # the server's weight, thousandths
    bint charset_free                    # a range's charset is not compared (rule 20)
    bint explicit                        # reached only by its own type/subtype (rule 21)
    unsigned long long bit               # its bit in a mask of offers (``find_offers``)
    Py_ssize_t group                     # the number of its type (0 for an explicit offer: ``decided``)


cdef struct Group:
    # The offers of one type that a wildcard reaches (not an explicit one, rule 21).
    fa_text type                         # "type/"
    unsigned long long mask              # their bits
    int next                             # the next type in its chain (``Offers.first_group``), or -1
    Py_ssize_t start, count              # where they are in ``Offers.group_order``
    Py_ssize_t late, n_late              # its offers from the 64th on, in ``Offers.late``
    # By a subtype's first byte & 31 (either case): a slot, -1, or for a
    # chain longer than LONG_CHAIN, -2 - where its split is in ``Offers.split``.
    int subtypes[32]


cdef struct Slot:
    # The offers of one subtype of one type, or of one suffix range
    # "type/*+suffix" (``find_offers``).
    fa_text subtype                      # lower-case subtype (or "*+suffix")
    unsigned long long mask              # the offers' bits
    int parts                            # PARTS_FULL or PARTS_SUFFIX: the range's ``Range.parts``
    Py_ssize_t late, n_late              # its offers from the 64th on, in ``Offers.late``
    int next                             # the next slot of its type in the same ``subtypes`` entry, or -1


cdef struct Posting:
    # An entry of a ``LateList``'s table: a parameter's ``param_hash``, and
    # where the offers that have it are in ``Offers.posted`` (``count`` 0: an
    # empty entry).
    unsigned long long hash
    Py_ssize_t start, count


cdef struct LateList:
    # Of a list of offers from the 64th on (all, a type's or a slot's, in
    # ``Offers.late``): the first ``with_params`` have a parameter or compare
    # no charset (rule 20), the only ones a range with parameters can match.
    # ``table``: their parameters by ``param_hash`` (open addressing, at most
    # half full, ``mask`` + 1 entries). ``any_charset``: one of them compares
    # no charset, which a range's charset then matches whatever its value.
    Posting* table
    unsigned long long mask
    Py_ssize_t with_params
    bint any_charset


cdef inline const Posting* posting(const Posting* table, unsigned long long mask,
                                   unsigned long long h) noexcept nogil:
    """The entry of ``table`` (open addressing, ``mask`` + 1 entries) for the
    hash ``h``; its ``count`` 0: none."""
    cdef const Posting* entry = table + (h & mask)
    while entry.count and entry.hash != h:
        entry = table + ((entry - table + 1) & mask)
    return entry


cdef Py_ssize_t enter(Posting* table, unsigned long long mask, dict by_hash,
                      Py_ssize_t* posted, Py_ssize_t start) except -1:
    """Enter each hash of ``by_hash`` in the empty ``table`` (at most half
    full), with the offers it lists written to ``posted`` from ``start``;
    return where the next list starts."""
    cdef Posting* entry
    for hashed, having in by_hash.items():
        entry = table + (<unsigned long long>hashed & mask)
        while entry.count:
            entry = table + ((entry - table + 1) & mask)
        entry.hash, entry.start, entry.count = hashed, start, len(having)
        for index in having:
            posted[start] = index
            start += 1
    return start


cdef int list_under(dict by_hash, unsigned long long hashed, Py_ssize_t index) except -1:
    """Add ``index`` to the list of ``by_hash[hashed]`` (made if missing), for
    ``enter``. Not ``setdefault``: CPython 3.13.0's corrupts the dict when an
    allocation fails (tests/test_stress.py)."""
    listed = by_hash.get(hashed)
    if listed is None:
        by_hash[hashed] = [index]
    else:
        listed.append(index)
    return 0


cdef struct Offers:
    # A negotiator's offers, parsed once, and what finds them.
    COffer* offers
    Py_ssize_t n
    Group* groups                        # the offers by type
    Py_ssize_t n_groups
    # By a type's first byte (both cases): a group, -1, or for a chain
    # longer than LONG_CHAIN, -2 - where its split is in ``split``.
    Py_ssize_t first_group[256]
    Slot* slots                          # the offers by type and subtype
    # Each long chain of types or of slots split by ``folded_hash``: a mask,
    # then the heads (``split_chain``).
    int* split
    unsigned long long all               # a mask of the offers a wildcard reaches
    unsigned long long with_params       # a mask of the offers with a parameter or comparing no charset
    # The offers a wildcard reaches (not an explicit one, rule 21) in the
    # order it prefers them (the higher qs, then server order): all
    # (``n_order``), and each type's (``Group.start``).
    Py_ssize_t* order
    Py_ssize_t n_order
    Py_ssize_t* group_order
    # The offers from the 64th on (one bit in a mask, ``SHARED_BIT``), each
    # checked by ``score_shared`` in the list a range's type and subtype
    # reach (``late_matches``): all (the first ``n_late``), then
    # each type's and each slot's (``Group.late``, ``Slot.late``), and of
    # each list in that order, a ``LateList``.
    Py_ssize_t* late
    Py_ssize_t n_late
    LateList* late_lists
    Py_ssize_t* posted                   # the offers every ``LateList``'s table entries list


cdef struct Scan:
    Range* ranges
    Py_ssize_t n_ranges, cap_ranges
    Param* params
    Py_ssize_t n_params, cap_params
    Skip* skips
    Py_ssize_t n_skips, cap_skips
    bint unsafe                          # a CORS-unsafe byte was seen
    bint on_heap                         # an array was moved off the stack (``scan_free``)
    # A set of one member's parameter names, past PAIRWISE_LIMIT only (owned).
    PyObject* names
    # Negotiation: each range is scored against the offers as soon as it is
    # parsed, then dropped, so memory stays O(offers) whatever the value.
    const Offers* set                    # NULL: keep every range and skip
    # Per offer credited (``credit``: its bit in ``credited``), the deciding
    # key (``WEIGHT_BITS``) of its most specific matching range so far.
    long long* keys
    unsigned long long* credited
    long long* group_keys                # per type: the best "type/*" key, -1: none
    long long any_key                    # the best "*/*" key (its weight), -1: none
    Py_ssize_t typed                     # the types a "type/*" names
    bint aside                           # a wildcard was kept aside (``score_range``)
    Range small_ranges[SMALL]
    Param small_params[SMALL]
    Skip small_skips[SMALL]
    long long small_keys[2 * ON_STACK]
    unsigned long long small_credited[(ON_STACK + 63) >> 6]


cdef struct Found:
    # Negotiating, what ``find_offers`` found of the member being read.
    unsigned long long mask              # its offers, narrowed by each parameter (``narrow``)
    Py_ssize_t essence_end, type_end     # where its type/subtype ends (-1: not read), its type
    int parts                            # ``Range.parts``
    int slot                             # for PARTS_FULL and PARTS_SUFFIX: its slot
    Py_ssize_t group                     # its type's number


cdef inline void scan_init(Scan* sc) noexcept:
    sc.ranges, sc.params, sc.skips = sc.small_ranges, sc.small_params, sc.small_skips
    sc.n_ranges = sc.n_params = sc.n_skips = 0
    sc.cap_ranges = sc.cap_params = sc.cap_skips = SMALL
    sc.unsafe = sc.on_heap = False
    sc.names, sc.set = NULL, NULL
    sc.keys, sc.credited = sc.small_keys, sc.small_credited
    sc.group_keys = sc.small_keys + ON_STACK


cdef inline void forget_names(Scan* sc) noexcept:
    if sc.names != NULL:
        Py_XDECREF(sc.names)
        sc.names = NULL


cdef inline void scan_free(Scan* sc) noexcept:
    forget_names(sc)
    if not sc.on_heap:
        return
    if sc.ranges != sc.small_ranges:
        PyMem_Free(sc.ranges)
    if sc.params != sc.small_params:
        PyMem_Free(sc.params)
    if sc.skips != sc.small_skips:
        PyMem_Free(sc.skips)
    if sc.keys != sc.small_keys:  # with credited and group_keys (``score_value``)
        PyMem_Free(sc.keys)


cdef void* grow(void* data, void* small, Py_ssize_t* cap, size_t item) except NULL:
    """Double an array's capacity, moving it off the stack the first time."""
    cdef Py_ssize_t new_cap = cap[0] * 2
    cdef void* out
    if data == small:
        out = PyMem_Malloc(new_cap * item)
        if out != NULL:
            memcpy(out, data, cap[0] * item)
    else:
        out = PyMem_Realloc(data, new_cap * item)
    if out == NULL:
        raise MemoryError()
    cap[0] = new_cap
    return out


cdef inline Range* push_range(Scan* sc) except NULL:
    if sc.n_ranges == sc.cap_ranges:
        sc.ranges = <Range*>grow(sc.ranges, sc.small_ranges, &sc.cap_ranges, sizeof(Range))
        sc.on_heap = True
    sc.n_ranges += 1
    return &sc.ranges[sc.n_ranges - 1]


cdef inline Param* push_param(Scan* sc) except NULL:
    if sc.n_params == sc.cap_params:
        sc.params = <Param*>grow(sc.params, sc.small_params, &sc.cap_params, sizeof(Param))
        sc.on_heap = True
    sc.n_params += 1
    return &sc.params[sc.n_params - 1]


cdef inline int push_skip(Scan* sc, Py_ssize_t start, Py_ssize_t end, Py_ssize_t pos, int code) except -1:
    if sc.n_skips == sc.cap_skips:
        sc.skips = <Skip*>grow(sc.skips, sc.small_skips, &sc.cap_skips, sizeof(Skip))
        sc.on_heap = True
    sc.skips[sc.n_skips].start, sc.skips[sc.n_skips].end = start, end
    sc.skips[sc.n_skips].pos, sc.skips[sc.n_skips].code = pos, code
    sc.n_skips += 1
    return 0


# The buffers scanned (a compact str's data, a bytes object's) end with a NUL,
# s[n], no byte a reader looks for: a reader stops on it without a bounds check,
# and needs to test for the end only where a NUL in the value must be told from it.
# ``read_input`` only ever hands out such buffers.

cdef inline Py_ssize_t skip_class(const unsigned char* s, Py_ssize_t i,
                                  unsigned char cls) noexcept nogil:
    """Past the bytes of class ``cls`` from ``i`` (one the NUL is not in),
    four bytes a step (each byte is read only after one of the class, so
    never past the NUL)."""
    while True:
        if not CLASS[s[i]] & cls:
            return i
        if not CLASS[s[i + 1]] & cls:
            return i + 1
        if not CLASS[s[i + 2]] & cls:
            return i + 2
        if not CLASS[s[i + 3]] & cls:
            return i + 3
        i += 4


cdef inline Py_ssize_t skip_token(const unsigned char* s, Py_ssize_t i) noexcept nogil:
    """Past the tchars from ``i``."""
    return skip_class(s, i, C_TCHAR)


cdef inline Py_ssize_t skip_ows(const unsigned char* s, Py_ssize_t i) noexcept nogil:
    """Past OWS from ``i``: SP and HTAB, ``_grammar.OWS_CHARS`` (checked at import)."""
    while s[i] == 32 or s[i] == 9:
        i += 1
    return i


cdef inline Py_ssize_t skip_separators(const unsigned char* s, Py_ssize_t i) noexcept nogil:
    """Past OWS and commas from ``i``: to the next member, or to the end (the NUL)."""
    while CLASS[s[i]] & C_SEPARATOR:
        i += 1
    return i


cdef inline unsigned long long fnv_fold(unsigned long long h, const unsigned char* s, Py_ssize_t a,
                                        Py_ssize_t b, bint escaped) noexcept nogil:
    """FNV-1a from ``h`` over ``s[a:b]``, ASCII letters folded to lower case
    (with ``escaped``, each quoted-pair's backslash left out)."""
    while a < b:
        if escaped and s[a] == 92:
            a += 1
        h = (h ^ LOWER[s[a]]) * FNV_PRIME
        a += 1
    return h


cdef unsigned long long FNV_BASIS = 14695981039346656037ULL  # FNV-1a's offset basis, 64 bits
cdef unsigned long long FNV_PRIME = 1099511628211ULL  # and its prime


cdef inline unsigned long long fnv_key(unsigned long long h) noexcept nogil:
    """An FNV-1a state as a table's key: its high half folded into the low
    one, which a table's mask keeps."""
    return h ^ (h >> 32)


cdef inline unsigned long long folded_hash(const unsigned char* s, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """FNV-1a of ``s[a:b]``, ASCII letters folded to lower case."""
    return fnv_key(fnv_fold(FNV_BASIS, s, a, b, False))


cdef inline unsigned long long whole_key(unsigned long long h) noexcept nogil:
    """From the FNV-1a state of a text, the key of the whole text (a tag
    itself, not as a prefix): one NUL more, which no tag has."""
    return fnv_key(h * FNV_PRIME)


cdef inline unsigned long long param_hash(const unsigned char* name, Py_ssize_t name_length,
                                          const unsigned char* value, Py_ssize_t value_length,
                                          bint escaped) noexcept nogil:
    """A parameter's hash, of its name, "=" and its value (unescaped), ASCII
    letters folded: the same for every parameter rule 9 compares equal."""
    cdef unsigned long long h = fnv_fold(FNV_BASIS, name, 0, name_length, False)
    return fnv_key(fnv_fold((h ^ 61) * FNV_PRIME, value, 0, value_length, escaped))


cdef inline int failed(Py_ssize_t* out, Py_ssize_t pos, int code) noexcept nogil:
    """``code``, with its position ``pos`` in ``out``."""
    out[0] = pos
    return code


cdef inline int parse_weight(const unsigned char* s, Py_ssize_t v, Py_ssize_t u, bint strict) noexcept nogil:
    """The qvalue in thousandths, or minus an error code (RFC 9110 §12.4.2)."""
    cdef Py_ssize_t length = u - v, i, first
    cdef int weight = 0, digits
    if s[v] == 46:  # '.d', '.dd', '.ddd': the legacy JDK form
        if length < 2 or length > 4:
            return -BAD_WEIGHT
        first = v + 1
    elif s[v] == 48 or s[v] == 49:  # '0' or '1'
        if length == 1:
            return 0 if s[v] == 48 else 1000
        if s[v + 1] != 46 or length > 5:
            return -BAD_WEIGHT
        first = v + 2
    else:
        return -BAD_WEIGHT
    for i in range(first, u):
        if s[i] < 48 or s[i] > 57 or (s[v] == 49 and s[i] != 48):
            return -BAD_WEIGHT
        weight = weight * 10 + (s[i] - 48)
    if s[v] == 49:
        return 1000
    if s[v] == 46 and strict:
        return -SHORT_WEIGHT
    digits = <int>(u - first)  # 0 to 3: thousandths
    if digits == 2:
        return weight * 10
    if digits == 1:
        return weight * 100
    return weight if digits == 3 else 0


cdef inline bint same_name(const unsigned char* s, Param* a, Param* b) noexcept nogil:
    cdef Py_ssize_t length = a.name_end - a.name_start, i
    if b.name_end - b.name_start != length:
        return False
    for i in range(length):
        if LOWER[s[a.name_start + i]] != LOWER[s[b.name_start + i]]:
            return False
    return True


cdef inline bytes lower_name(const unsigned char* s, Param* p):
    return PyBytes_FromStringAndSize(<const char*>s + p.name_start, p.name_end - p.name_start).lower()


cdef bint repeated_name(const unsigned char* s, Scan* sc, Py_ssize_t first_param) except -1:
    """Whether the member's newest parameter name repeats an earlier one:
    pairwise up to ``PAIRWISE_LIMIT`` parameters, then by a set
    (``sc.names``, released by ``forget_names``) that keeps it linear."""
    cdef Py_ssize_t m, last = sc.n_params - 1
    cdef Param* param = &sc.params[last]
    cdef set names
    if sc.names == NULL:
        if last - first_param < PAIRWISE_LIMIT:
            for m in range(first_param, last):
                if same_name(s, &sc.params[m], param):
                    return True
            return False
        names = {lower_name(s, &sc.params[m]) for m in range(first_param, last)}
        Py_INCREF(names)
        sc.names = <PyObject*>names
    names = <set>sc.names
    name = lower_name(s, param)
    if name in names:
        return True
    names.add(name)
    return False


cdef enum:
    # ``Range.parts``: what a range names of type/subtype, in halves of a part,
    # so that ``parts << 31`` is its specificity without parameters (rule 10;
    # ``_match``'s): "*/*", "type/*", the structured-syntax suffix range
    # "type/*+suffix" (rule 22, RFC 6838 §4.2.8: between the two others, as
    # ``_match.SUFFIX_ONLY``), "type/subtype".
    PARTS_ANY = 0
    PARTS_TYPE = 2
    PARTS_SUFFIX = 3
    PARTS_FULL = 4


cdef Py_ssize_t read_essence(const unsigned char* s, Py_ssize_t n, Py_ssize_t start,
                             bint strict, Py_ssize_t* k, int* parts,
                             Py_ssize_t* out) noexcept nogil:
    """A member's ``type "/" subtype`` (RFC 9110 §12.5.1; ``*/subtype`` is
    invalid, a bare ``*`` the legacy ``*/*`` in lenient mode; ``type/*+suffix``
    a suffix range, rule 22, and no other subtype begins with ``+`` or ``*``): the
    type's end, the subtype's end in ``k`` (the type's for a bare ``*``) and
    what it names (``Range.parts``) in ``parts``; or minus an error code, its
    position in ``out``."""
    cdef Py_ssize_t j = skip_token(s, start)
    cdef bint type_star
    if j == start:
        return -failed(out, start, EXPECTED_TYPE)
    type_star = j == start + 1 and s[start] == 42
    if j < n and s[j] == 47:
        k[0] = skip_token(s, j + 1)
        if k[0] == j + 1:
            return -failed(out, j + 1, EXPECTED_SUBTYPE)
        if k[0] == j + 2 and s[j + 1] == 42:
            parts[0] = PARTS_ANY if type_star else PARTS_TYPE
        elif s[j + 1] == 42 and s[j + 2] == 43:  # '*+': a suffix range
            if type_star:
                return -failed(out, j + 2, SUFFIX_WILDCARD_TYPE)
            if k[0] == j + 3:
                return -failed(out, k[0], EMPTY_SUFFIX)
            parts[0] = PARTS_SUFFIX
        elif type_star:
            return -failed(out, j + 1, WILDCARD_TYPE)
        elif s[j + 1] == 43 or s[j + 1] == 42:  # '+x', '*x' (rule 2)
            return -failed(out, j + 1, SUBTYPE_START)
        else:
            parts[0] = PARTS_FULL
        return j
    if type_star:  # the legacy bare '*'
        if strict:
            return -failed(out, j, BARE_WILDCARD)
        k[0], parts[0] = j, PARTS_ANY
        return j
    return -failed(out, j, EXPECTED_SLASH)


cdef enum:
    # Negotiating: no offer can have the member (``narrow``); it is read no further.
    UNREACHABLE = 99


cdef int scan_member(const unsigned char* s, Py_ssize_t n, Py_ssize_t start, bint strict,
                     Scan* sc, Found* found, Py_ssize_t* out) except -1:
    """Parse the member at ``start``; 0 and its end in ``out``, or a code and position.

    Negotiating (``found`` given), its type/subtype was read by
    ``find_offers`` (unless it is a ``*`` type not followed by ``/*``), and
    each parameter narrows the offers it can reach: with none left it is
    ``UNREACHABLE``.
    """
    cdef Py_ssize_t j, k, p, t, v, u, first_param = sc.n_params
    cdef int weight = -1, w, code = 0, parts
    cdef bint escaped, is_weight
    cdef Param* param
    cdef Range* rng

    if found != NULL and found.essence_end >= 0:
        j, k, parts = found.type_end, found.essence_end, found.parts
    else:
        j = read_essence(s, n, start, strict, &k, &parts, out)
        if j < 0:
            return -j
    p = k
    while True:
        p = skip_ows(s, p)
        if p >= n or s[p] == 44:
            break
        if s[p] != 59:
            code, out[0] = EXPECTED_SEPARATOR, p
            break
        p = skip_ows(s, p + 1)
        if p >= n or s[p] == 44 or s[p] == 59:
            continue
        t = skip_token(s, p)
        if t == p:
            code, out[0] = EXPECTED_PARAM_NAME, p
            break
        if s[t] != 61:
            code, out[0] = EXPECTED_EQUALS, t
            break
        v = t + 1
        escaped = False
        is_weight = t == p + 1 and LOWER[s[p]] == 113  # 'q': the weight
        if s[v] == 34:
            u = v + 1
            while True:
                if u >= n:
                    code = UNTERMINATED_QUOTE
                    break
                if s[u] == 34:
                    break
                if s[u] == 92:
                    if u + 1 >= n:
                        code = UNTERMINATED_QUOTE
                        break
                    if not CLASS[s[u + 1]] & C_QPAIR:
                        code, v = BAD_ESCAPE, u + 1
                        break
                    escaped = True
                    u += 2
                elif CLASS[s[u]] & C_QDTEXT:
                    u += 1
                else:
                    code, v = BAD_QUOTED_CHAR, u
                    break
            if code:
                out[0] = v
                break
            sc.unsafe = True  # '"' is a CORS-unsafe byte
            u += 1
        else:
            u = skip_token(s, v)
            if u == v:  # after 'q=', a weight (rule 4: never quoted)
                code, out[0] = EXPECTED_QVALUE if is_weight else EXPECTED_VALUE, v
                break
        if is_weight:
            if weight >= 0:
                code, out[0] = DUPLICATE_PARAM, p
                break
            w = -BAD_WEIGHT if s[v] == 34 else parse_weight(s, v, u, strict)
            if w < 0:
                code, out[0] = -w, v
                break
            weight = w
        else:
            param = push_param(sc)
            param.name_start, param.name_end = p, t
            if s[v] == 34:
                param.value_start, param.value_end = v + 1, u - 1
            else:
                param.value_start, param.value_end = v, u
            param.escaped = escaped
            if repeated_name(s, sc, first_param):
                code, out[0] = DUPLICATE_PARAM, p
                break
            if found != NULL:
                found.mask = narrow(s, n, sc, param, found.mask)
                if found.mask == 0:
                    code, out[0] = UNREACHABLE, u
                    break
        p = u

    forget_names(sc)
    if code:
        sc.n_params = first_param
        return code
    if weight < 0:
        weight = 1000
    out[0] = p
    if found != NULL:  # negotiating: scored at once, then dropped
        score_range(s, n, sc, found, first_param, weight, parts)
        sc.n_params = first_param
        return 0
    rng = push_range(sc)
    rng.type_start, rng.type_end = start, j
    rng.sub_start, rng.sub_end = j + 1, k
    rng.first_param, rng.n_params = first_param, sc.n_params - first_param
    rng.weight, rng.parts = weight, parts
    return 0


cdef inline Py_ssize_t member_end(const unsigned char* s, Py_ssize_t n, Py_ssize_t i) noexcept nogil:
    """Where the member at ``i`` ends: the next comma outside quoted strings,
    or n. Every ``"`` opens a quoted string, in which ``\\`` escapes the next
    byte (RFC 9110 §5.6.4), so a skipped member never swallows part of the
    next. Each byte is read once (``skip_class``, also for a quoted string's
    qdtext: no step waits for the byte before it)."""
    while True:
        i = skip_class(s, i, C_PLAIN)
        if i >= n or s[i] == 44:
            return i
        if s[i] == 34:  # a quoted string: to its closing quote
            i += 1
            while True:
                i = skip_class(s, i, C_QDTEXT)
                if i >= n:
                    return n
                if s[i] == 34:
                    break
                if s[i] == 92:  # the byte after it is escaped
                    i += 1
                    if i >= n:
                        return n
                i += 1
        i += 1  # past the closing quote, or a NUL inside the value


cdef bint any_unsafe(const unsigned char* s, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """Whether ``s[a:b]`` holds a CORS-unsafe request-header byte (Fetch)."""
    cdef Py_ssize_t i
    for i in range(a, b):
        if CLASS[s[i]] & C_UNSAFE:
            return True
    return False


cdef enum:
    MASK_BITS = 64  # offers told apart in a mask; the rest share its last bit

cdef unsigned long long SHARED_BIT = <unsigned long long>1 << (MASK_BITS - 1)


cdef inline int split_head(const Offers* set, Py_ssize_t chain, const unsigned char* s,
                           Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """The head of the part of the split chain ``chain`` (below -1:
    ``split_chain``'s) that holds the texts with the hash of ``s[a:b]``."""
    cdef const int* split = set.split - 2 - chain
    return split[1 + (folded_hash(s, a, b) & <unsigned long long>split[0])]


cdef unsigned long long find_offers(const unsigned char* s, Py_ssize_t n, Py_ssize_t i,
                                    const Offers* set, Found* found,
                                    Py_ssize_t* read) noexcept nogil:
    """The offers the member at ``i`` can match by its type and subtype (bit
    k for offer k, bit 63 for any from the 64th on): a ``*`` type, every
    offer a wildcard reaches (not an explicit one, rule 21); ``type/*``, those
    of its type; ``type/subtype`` or ``type/*+suffix``
    (rule 22), that essence's. 0: it matches none, valid or not (rule 10),
    and need not be read past ``read``. What ``scan_member`` needs goes to
    ``found`` (``essence_end`` -1: a ``*`` type not followed by ``/*``,
    which it reads itself).

    A type is found among the offers' by its first byte, a subtype among
    its type's by its first byte's low five bits (``Group.subtypes``); where
    more than ``LONG_CHAIN`` share them, by a hash of the whole type or
    subtype too (``split_chain``); each is compared whole (``fa_is``).
    Where a token ends is found by reading it, never from the length of a
    text it is compared with: so where the next member begins does not wait
    for the look-up's loads
    (benchmarks/README.md, "Issue 36, tenth step")."""
    cdef Py_ssize_t g, j, e
    cdef int k
    cdef const Group* group
    cdef const Slot* slot
    read[0] = i
    if s[i] == 42 and not CLASS[s[i + 1]] & C_TCHAR:  # the type '*'
        if s[i + 1] == 47 and s[i + 2] == 42 and not CLASS[s[i + 3]] & C_TCHAR:
            found.type_end, found.essence_end, found.parts = i + 1, i + 3, PARTS_ANY
        else:
            found.essence_end = -1
        return set.all
    g = set.first_group[s[i]]
    if fa_unlikely(g < 0):
        if g == -1:
            return 0
        g = split_head(set, g, s, i, skip_token(s, i) + 1)  # "type/"
    j = read[0] = skip_token(s, i)
    if s[j] != 47:
        return 0
    while g >= 0:  # the offers' types that begin with this byte
        group = &set.groups[g]
        if group.type.length == j + 1 - i and fa_is(s, i, n, &group.type):  # "type/"
            break
        g = group.next
    else:
        return 0
    found.type_end, found.group = j, g
    if s[j + 1] == 42 and not CLASS[s[j + 2]] & C_TCHAR:  # type/*
        found.essence_end, found.parts = j + 2, PARTS_TYPE
        return group.mask
    read[0] = j + 1
    k = group.subtypes[s[j + 1] & 31]
    if k == -1:
        return 0
    e = read[0] = skip_token(s, j + 1)
    if k < -1:  # a long chain: the part of it with the subtype's hash
        k = split_head(set, k, s, j + 1, e)
    while k >= 0:  # the subtypes of this type whose first byte has the same low 5 bits
        slot = &set.slots[k]
        if slot.subtype.length == e - j - 1 and fa_is(s, j + 1, n, &slot.subtype):
            found.essence_end, found.parts, found.slot = e, slot.parts, k
            return slot.mask
        k = slot.next
    return 0


cdef inline bint has_param(const unsigned char* s, Py_ssize_t n, Param* p, COffer* o) noexcept nogil:
    """The range parameter ``p`` is present in offer ``o`` with an equal value
    (rule 9), or is a charset that ``o``, JSON without one, does not compare
    (rule 20, ``_member.charset_free``)."""
    cdef Py_ssize_t k
    for k in range(o.n_params):
        if span_is(s, n, p.name_start, p.name_end, &o.params[k].name):
            return value_is(s, n, p, &o.params[k])
    return o.charset_free and span_is(s, n, p.name_start, p.name_end, &CHARSET)


cdef unsigned long long narrow(const unsigned char* s, Py_ssize_t n, Scan* sc, Param* p,
                               unsigned long long mask) noexcept nogil:
    """The offers of ``mask`` that have the parameter ``p``, of those with a
    parameter or comparing no charset (the shared bit of the 64th offer on is
    kept: ``score_shared`` checks those)."""
    cdef unsigned long long left = mask & sc.set.with_params, kept = mask & SHARED_BIT
    cdef int k
    while left:
        k = fa_lowest_bit(left)
        left &= left - 1
        if has_param(s, n, p, &sc.set.offers[k]):
            kept |= <unsigned long long>1 << k
    return kept


cdef inline void credit(Scan* sc, Py_ssize_t k, long long key) noexcept nogil:
    """Offer ``k`` keeps the key of its most specific matching range;
    between equally specific ranges, the higher weight (rule 10)."""
    cdef unsigned long long bit = <unsigned long long>1 << (k & 63)
    if not sc.credited[k >> 6] & bit:
        sc.credited[k >> 6] |= bit
        sc.keys[k] = key
    elif key > sc.keys[k]:
        sc.keys[k] = key


cdef int scan(const unsigned char* s, Py_ssize_t n, bint strict, Scan* sc) except -1:
    """Scan a whole value; in strict mode the first violation is the only skip.

    Negotiating (``sc.set`` given), a member that can match no offer is
    passed over unread (``find_offers``) or read no further (``narrow``),
    and each range is scored as soon as it is read (``score_range``).
    """
    cdef Py_ssize_t i = 0, pos = 0, end
    cdef int code
    cdef Found found
    cdef Found* negotiating = &found if sc.set != NULL else NULL
    while True:
        i = skip_separators(s, i)
        if i >= n:
            return 0
        if negotiating != NULL:
            found.mask = find_offers(s, n, i, sc.set, &found, &pos)
            if found.mask == 0:
                i = member_end(s, n, pos)
                continue
        code = scan_member(s, n, i, strict, sc, negotiating, &pos)
        if code:
            end = member_end(s, n, i)
            if negotiating == NULL:
                push_skip(sc, i, end, pos, code)
                if any_unsafe(s, i, end):
                    sc.unsafe = True
            if strict:
                return 0
            i = end
        else:
            i = pos


#: The field name of Accept, for errors (the list headers name their own).
cdef str ACCEPT = _ACCEPT


cdef inline object read_input(object value, const unsigned char** data, Py_ssize_t* length,
                              Py_ssize_t limit, str field=ACCEPT):
    """Point ``data`` at the value's bytes, always NUL-terminated (a
    one-byte-kind str's data or a bytes object's, as CPython lays them out);
    return the object that owns them. ``field`` names the header in the
    ``TypeError`` for another type. Any value but such a (ready) str:
    ``read_other``, which reads no wider ``str`` of over ``limit`` characters
    (``data`` NULL: the caller refuses it by its ``length``, rule 8)."""
    if (isinstance(value, str) and PyUnicode_IS_READY(value)
            and PyUnicode_KIND(value) == PyUnicode_1BYTE_KIND):
        data[0] = <const unsigned char*>PyUnicode_DATA(value)
        length[0] = PyUnicode_GET_LENGTH(value)
        return value
    return read_other(value, data, length, limit, field)


cdef inline object read_once(object value, str field):
    """``value`` as every read of one call sees it: a str or bytes as
    given, a ``bytearray`` or ``memoryview`` copied to bytes once (so the text
    a message names is the text scanned, whatever changes it meanwhile),
    another type's ``TypeError``. For a call that reads it again after
    ``read_input`` (a message, the skipped members)."""
    if type(value) is str or type(value) is bytes:
        return value
    return _coerce_value(value, field)


cdef object read_other(object value, const unsigned char** data, Py_ssize_t* length,
                       Py_ssize_t limit, str field):
    """``read_input`` for a value that is not a one-byte-kind ``str``. A wider
    ``str`` is made bytes in one pass, each character its byte and one above
    U+00FF (no header byte, RFC 9110 §5.5) NUL, which every rule rejects, as
    ``_text.as_header_text`` reads it: one byte a character, so the length
    ``read_checked`` then compares is ``_text.header_length``'s; over
    ``limit`` characters it is not made (``data`` NULL)."""
    cdef Py_ssize_t i, n
    cdef int kind
    cdef void* chars
    cdef unsigned char* out
    cdef Py_UCS4 code
    if isinstance(value, str):
        PyUnicode_READY(value)
        n = length[0] = PyUnicode_GET_LENGTH(value)
        if n > limit:
            data[0] = NULL
            return value
        kind = PyUnicode_KIND(value)
        chars = PyUnicode_DATA(value)
        held = PyBytes_FromStringAndSize(NULL, n)
        out = <unsigned char*>PyBytes_AS_STRING(held)
        for i in range(n):
            code = PyUnicode_READ(kind, chars, i)
            out[i] = <unsigned char>code if code <= 0xFF else 0
    elif isinstance(value, bytes):
        held = value
    else:
        held = _coerce_value(value, field)
    data[0] = <const unsigned char*>PyBytes_AS_STRING(held)
    length[0] = PyBytes_GET_SIZE(held)
    return held


#: The default ``max_length`` object: given (or left out), it needs no check.
cdef object DEFAULT_MAX_LENGTH = _DEFAULT_MAX_LENGTH
cdef Py_ssize_t DEFAULT_LIMIT = _DEFAULT_MAX_LENGTH


cdef inline object read_checked(object value, const unsigned char** data, Py_ssize_t* length,
                                Py_ssize_t limit, str field):
    """``read_input``, refusing a value of over ``limit`` bytes (rule 8): the
    message names the text read, the str or the bytes a buffer gave."""
    owner = read_input(value, data, length, limit, field)
    if length[0] > limit:
        raise _too_long(value if isinstance(value, str) else owner, length[0], limit, field)
    return owner


#: Where threads run at once (``_limits.THREADS_AT_ONCE``): a negotiator
#: keeps a value cache per thread, and the one-call forms their state too.
cdef bint THREADS_AT_ONCE = _THREADS_AT_ONCE
cdef bint BYTES_CACHED = _BYTES_CACHED

cdef extern from *:
    """
    /* Each thread's own objects found last (a negotiator's value cache, a
       one-call form's Kept), by their owner's serial: a borrowed pointer to
       what the owner's _thread._local holds for this thread, so a call finds
       it without a look-up there. A serial (the making thread's id, that
       thread's count) and a thread's id are never reused; an own object
       forgets itself here when freed (fa_forget), which the owner's death or
       the thread's end brings. Built where threads run at once (a
       free-threaded CPython) with gcc or clang; elsewhere nothing is kept. */
    #if defined(Py_GIL_DISABLED) && defined(__GNUC__)
    #define FA_MEMO 64
    typedef struct { uint64_t maker, made, thread; PyObject *own; } fa_memo;
    static __thread fa_memo fa_memos[FA_MEMO];
    /* A serial's slot: one thread's objects in the order made take slots in
       turn, each thread's from its own start (its id times an odd number). */
    static inline fa_memo *fa_slot(const fa_memo *serial) {
        return &fa_memos[(serial->made + serial->maker * 0x9E3779B9u) % FA_MEMO];
    }
    static __thread uint64_t fa_made;
    static inline uint64_t fa_thread(void) { return PyThreadState_GetID(PyThreadState_Get()); }
    static inline void fa_new_serial(fa_memo *serial) {
        serial->maker = fa_thread();
        serial->made = ++fa_made;
    }
    static inline PyObject *fa_found(const fa_memo *serial) {
        fa_memo *m = fa_slot(serial);
        return m->made == serial->made && m->maker == serial->maker && m->thread == fa_thread()
            ? m->own : NULL;
    }
    static inline void fa_keep(const fa_memo *serial, PyObject *own) {
        fa_memo *m = fa_slot(serial);
        m->maker = serial->maker; m->made = serial->made; m->thread = fa_thread(); m->own = own;
    }
    static inline void fa_forget(PyObject *own) {
        for (int i = 0; i < FA_MEMO; i++) if (fa_memos[i].own == own) fa_memos[i].made = 0;
    }
    #else
    typedef struct { int unused; } fa_memo;
    #define fa_new_serial(serial) ((void)(serial))
    #define fa_found(serial) ((PyObject *)NULL)
    #define fa_keep(serial, own) ((void)(own))
    #define fa_forget(own) ((void)(own))
    #endif
    """
    ctypedef struct fa_memo:
        pass
    void fa_new_serial(fa_memo* serial)
    PyObject* fa_found(const fa_memo* serial)
    void fa_keep(const fa_memo* serial, PyObject* own)
    void fa_forget(PyObject* own)


@cython.final
cdef class _Values(dict):
    """One thread's value cache of one negotiator (``_limits.ThreadCache``
    makes it in each thread), forgotten by the memo when freed."""

    def __dealloc__(self):
        fa_forget(<PyObject*>self)


cdef enum:
    TOKEN_MAX = 32  # a longer token is decoded, then lower-cased


cdef str token_text(const unsigned char* s, Py_ssize_t a, Py_ssize_t b):
    """The token ``s[a:b]``, lower-case (RFC 9110 §8.3.1: case-insensitive)."""
    cdef Py_ssize_t n = b - a, i
    cdef unsigned char lowered[TOKEN_MAX]
    if n > TOKEN_MAX:
        return PyUnicode_DecodeLatin1(<const char*>s + a, n, NULL).lower()
    for i in range(n):
        lowered[i] = LOWER[s[a + i]]
    return PyUnicode_DecodeLatin1(<const char*>lowered, n, NULL)


cdef str value_text(const unsigned char* s, Param* p):
    cdef Py_ssize_t i = p.value_start, k = 0
    cdef bytearray buf
    if not p.escaped:
        return PyUnicode_DecodeLatin1(<const char*>s + i, p.value_end - i, NULL)
    buf = bytearray(p.value_end - i)
    while i < p.value_end:
        if s[i] == 92:
            i += 1
        buf[k] = s[i]
        k += 1
        i += 1
    return PyUnicode_DecodeLatin1(<const char*>buf, k, NULL)


_ABSENT = _Accept(present=False)


cdef inline object made_by_new(object maker, object cls, tuple args):
    """A ``cls`` made by the ``tp_new`` of ``maker`` (``cls`` or a base of
    it) from ``args``, without a Python-level call."""
    cdef PyObject* made = (<TypeWithNew*>maker).tp_new(<PyTypeObject*>cls, <PyObject*>args, NULL)
    if made == NULL:
        raise MemoryError()
    result = <object>made
    Py_DECREF(result)  # <object> took a reference of its own
    return result


cdef extern from *:
    """
    /* `slot.__set__(obj, value)` for a member descriptor `slot` (a class's
       __slots__ entry), without a Python-level call. */
    static int fa_set_slot(PyObject *slot, PyObject *obj, PyObject *value) {
        return Py_TYPE(slot)->tp_descr_set(slot, obj, value);
    }
    """
    int fa_set_slot(object slot, object obj, object value) except -1


#: The member descriptors of ``Accept``'s slots, its bases' first: the order
#: of its constructor's parameters, whose first three and the two after them
#: are every ``_types._Members``' (``made_by_slots``).
cdef tuple SLOTS = tuple([kind.__dict__[name] for kind in reversed(_Accept.__mro__)
                          for name in kind.__dict__.get("__slots__", ())])


#: This module's name (interned), once the module is whole: a value it
#: parsed keeps it, to hand its text to its one-call forms
#: (``_types._Members``' ``_value``, ``_engine``).
cdef object ENGINE = None


cdef object made_by_slots(object cls, tuple members, object skipped, object value,
                          object cors_safelisted=None):
    """A ``cls`` (a ``_types._Members``) made as ``_made(members, skipped)``
    makes it (and an ``Accept``'s ``cors_safelisted`` set, as ``_scan_py.parse``
    sets it after), its slots set without a Python-level call: parsing makes
    one per value. It keeps ``value``, the text parsed, where that is a str
    or bytes (not a buffer that can change)."""
    cdef bint kept = ENGINE is not None and (type(value) is str or type(value) is bytes)
    made = made_by_new(cls, cls, ())
    fa_set_slot(SLOTS[0], made, members)
    fa_set_slot(SLOTS[1], made, True)
    fa_set_slot(SLOTS[2], made, skipped)
    fa_set_slot(SLOTS[3], made, value if kept else None)
    fa_set_slot(SLOTS[4], made, ENGINE if kept else None)
    if cors_safelisted is not None:
        fa_set_slot(SLOTS[5], made, cors_safelisted)
    return made


cdef class _Kind:
    """A header as this engine reads it: a list header's description
    (``_lists.ListHeader``, its values type's ``_header``), or Accept's."""

    cdef int grammar
    cdef str field
    cdef object values, member, offers

    def __init__(self, values):
        header = values._header
        self.values, self.grammar, self.field = values, header.grammar, header.field
        self.member, self.offers = header.member, header.offers


cdef _Kind ENCODING = _Kind(_AcceptEncoding)
cdef _Kind LANGUAGE = _Kind(_AcceptLanguage)
cdef _Kind ACCEPT_KIND = _Kind.__new__(_Kind)
ACCEPT_KIND.grammar, ACCEPT_KIND.field, ACCEPT_KIND.values = MEDIA_RANGES, ACCEPT, _Accept


cdef object skipped_members(Scan* sc, object value, bint strict, str field):
    """The members a scan of ``value`` (``read_once``'s) skipped, as
    ``_types.Unexplained`` records them (native integers, four a member); in
    strict mode the error of the first (the only one) is raised instead."""
    cdef Py_ssize_t i
    cdef Py_ssize_t* out
    cdef Skip* sk
    if not sc.n_skips:
        return ()
    if strict:
        sk = &sc.skips[0]
        raise _AcceptError(_reason(sk.code, _as_header_text(value)[0], sk.pos), value, sk.pos, field)
    records = PyBytes_FromStringAndSize(NULL, 4 * sc.n_skips * sizeof(Py_ssize_t))
    out = <Py_ssize_t*>PyBytes_AS_STRING(records)
    for i in range(sc.n_skips):
        sk = &sc.skips[i]
        out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3] = sk.start, sk.end, sk.pos, sk.code
    return _Unexplained(value, memoryview(records).cast("n"))


cdef object parsed(_Kind kind, object value, object strict_flag, object max_length):
    """``parse``, ``parse_encoding``, ``parse_language``: by the description ``kind``."""
    cdef const unsigned char* s
    cdef Py_ssize_t n, i, m
    cdef Scan sc
    cdef Range* r
    cdef Param* param
    cdef bint accept = kind.grammar == MEDIA_RANGES
    if strict_flag is not True and strict_flag is not False:
        _checked_flag(strict_flag, "strict")
    cdef bint strict = strict_flag is True
    cdef Py_ssize_t limit = DEFAULT_LIMIT  # the default object needs no check
    if max_length is None:
        limit = PY_SSIZE_T_MAX
    elif max_length is not DEFAULT_MAX_LENGTH:
        limit = _checked_max_length(max_length)
    if value is None:
        return _ABSENT if accept else kind.values(present=False)
    value = read_once(value, kind.field)
    _owner = read_checked(value, &s, &n, limit, kind.field)  # keeps the buffer alive
    scan_init(&sc)
    try:
        if accept:
            scan(s, n, strict, &sc)
        else:
            scan_items(s, n, strict, kind.grammar, &sc)
        skipped = skipped_members(&sc, value, strict, kind.field)
        members = PyTuple_New(sc.n_ranges)
        for i in range(sc.n_ranges):
            r = &sc.ranges[i]
            if accept:
                params = PyTuple_New(r.n_params)
                for m in range(r.n_params):
                    param = &sc.params[r.first_param + m]
                    pair = (token_text(s, param.name_start, param.name_end), value_text(s, param))
                    Py_INCREF(pair)
                    PyTuple_SET_ITEM(params, m, pair)
                made = made_by_new(tuple, _MediaRange, ((  # a named tuple, by tuple's constructor
                    token_text(s, r.type_start, r.type_end),
                    "*" if r.parts <= PARTS_TYPE else token_text(s, r.sub_start, r.sub_end),
                    params, r.weight),))
            else:
                made = made_by_new(tuple, kind.member, ((token_text(s, r.type_start, r.type_end), r.weight),))
            Py_INCREF(made)  # PyTuple_SET_ITEM steals it
            PyTuple_SET_ITEM(members, i, made)
        if accept:
            return made_by_slots(_Accept, members, skipped, value, n <= CORS_MAX_LENGTH and not sc.unsafe)
        return made_by_slots(kind.values, members, skipped, value)
    finally:
        scan_free(&sc)


def parse(value, *, strict=False, max_length=_DEFAULT_MAX_LENGTH):
    return parsed(ACCEPT_KIND, value, strict, max_length)


def parse_encoding(value, *, strict=False, max_length=_DEFAULT_MAX_LENGTH):
    return parsed(ENCODING, value, strict, max_length)


def parse_language(value, *, strict=False, max_length=_DEFAULT_MAX_LENGTH):
    return parsed(LANGUAGE, value, strict, max_length)


def is_cors_safelisted(value):
    cdef const unsigned char* s
    cdef Py_ssize_t n
    if value is None:
        return True
    _owner = read_input(value, &s, &n, CORS_MAX_LENGTH)  # keeps the buffer alive
    return n <= CORS_MAX_LENGTH and not any_unsafe(s, 0, n)


# --- negotiation on C structs --------------------------------------------------

cdef int hold(list keep, str text, fa_text* out) except -1:
    """An offer's text (lower-case where it is compared so) as Latin-1 bytes
    kept alive in ``keep``, followed by 8 NULs, with the words ``fa_is``
    compares."""
    cdef bytes b = (text + "\0" * 8).encode("latin-1")
    keep.append(b)
    out.text, out.length = <const unsigned char*>PyBytes_AS_STRING(b), len(text)
    fa_words(out)
    return 0


cdef list KEPT = []
cdef fa_text CHARSET
hold(KEPT, "charset", &CHARSET)


cdef inline bint span_is(const unsigned char* s, Py_ssize_t n, Py_ssize_t a, Py_ssize_t b,
                         const fa_text* t) noexcept nogil:
    """The span ``s[a:b]`` (of a value of ``n`` bytes), ASCII case folded,
    is the kept text ``t``."""
    return b - a == t.length and fa_is(s, a, n, t)


cdef inline bint value_is(const unsigned char* s, Py_ssize_t n, Param* p,
                          OfferParam* op) noexcept nogil:
    cdef Py_ssize_t i = p.value_start, k = 0
    cdef unsigned char c
    if not p.escaped:
        return p.value_end - i == op.value.length and (
            fa_is(s, i, n, &op.value) if op.fold
            else memcmp(s + i, op.value.text, op.value.length) == 0)
    while i < p.value_end:
        c = s[i]
        if c == 92:
            i += 1
            c = s[i]
        if op.fold:
            c = LOWER[c]
        if k >= op.value.length or op.value.text[k] != c:
            return False
        k += 1
        i += 1
    return k == op.value.length


cdef bint late_matches(const unsigned char* s, Py_ssize_t n, Scan* sc, int parts,
                       Py_ssize_t first_param, Py_ssize_t n_params, COffer* o) noexcept nogil:
    """Whether a range (``Range.parts``, its parameters from ``first_param``
    on) matches offer ``o`` of the list its type and subtype reach
    (``score_shared``: the list holds only offers of its type and subtype,
    or that its suffix reaches): only a range naming its type and subtype
    reaches an explicit offer (rule 21), and every range parameter is
    present and equal (rule 9)."""
    cdef Py_ssize_t m
    if o.explicit and parts != PARTS_FULL:
        return False
    for m in range(first_param, first_param + n_params):
        if not has_param(s, n, &sc.params[m], o):
            return False
    return True


cdef enum:
    # A deciding key (rule 10), ``_match``'s: a range's specificity (``parts
    # << 31`` and its number of parameters) above its weight (at most 1000),
    # so that the larger key decides: the more specific range, then the
    # higher weight.
    WEIGHT_BITS = 10

if (WEIGHT_BITS, <long long>PARTS_SUFFIX << 31) != (_match.WEIGHT_BITS, _match.SUFFIX_ONLY):
    raise ImportError("_scan.pyx and _match pack a range's deciding key differently")

cdef long long WEIGHT_MASK = (1 << WEIGHT_BITS) - 1


cdef inline void score_range(const unsigned char* s, Py_ssize_t n, Scan* sc, Found* found,
                             Py_ssize_t first_param, int weight, int parts) noexcept nogil:
    """Credit the range just read (its parameters from ``first_param`` on;
    rule 10): a wildcard without parameters is kept aside for its type's
    offers or for all (``decided``, ``best_offer``); any other range is
    credited to the offers of ``found.mask``, which ``narrow`` left with its
    parameters (of the offers from the 64th on, those its type and subtype
    reach are checked by ``score_shared``)."""
    cdef Py_ssize_t n_params = sc.n_params - first_param
    cdef long long key = (((<long long>parts << 31) | n_params) << WEIGHT_BITS) | weight
    cdef unsigned long long left = found.mask & ~SHARED_BIT
    cdef Py_ssize_t k
    if n_params == 0 and parts <= PARTS_TYPE:
        sc.aside = True
        if parts == PARTS_ANY:
            if key > sc.any_key:
                sc.any_key = key
        elif key > sc.group_keys[found.group]:
            sc.typed += sc.group_keys[found.group] < 0
            sc.group_keys[found.group] = key
        return
    while left:
        k = fa_lowest_bit(left)
        left &= left - 1
        credit(sc, k, key)
    if found.mask & SHARED_BIT:
        score_shared(s, n, sc, parts, first_param, n_params, key, found)


cdef void score_shared(const unsigned char* s, Py_ssize_t n, Scan* sc, int parts,
                       Py_ssize_t first_param, Py_ssize_t n_params, long long key,
                       const Found* found) noexcept nogil:
    """Credit the range just read (``Range.parts``, its parameters from
    ``first_param`` on) to the offers from the 64th on that it matches: of
    those its type and subtype reach (``find_offers``), so that a range naming
    a type is not checked against every offer; and for a range with
    parameters, of those with parameters, only the offers that have the one of
    its parameters that the fewest have (``LateList.table``), or none where no
    offer has one of them; a charset that one of them takes whatever its value
    (rule 20) is not looked up, and a range with no other parameter reads
    them all."""
    cdef const Offers* set = sc.set
    cdef const Py_ssize_t* late = set.late
    cdef Py_ssize_t i, k, count = set.n_late
    cdef const LateList* listed = set.late_lists
    cdef const Posting* entry
    cdef const Param* p
    cdef unsigned long long h
    if parts == PARTS_TYPE:
        late, count = late + set.groups[found.group].late, set.groups[found.group].n_late
        listed += 1 + found.group
    elif parts != PARTS_ANY:
        late, count = late + set.slots[found.slot].late, set.slots[found.slot].n_late
        listed += 1 + set.n_groups + found.slot
    if n_params:
        count = listed.with_params
    for i in range(first_param, first_param + n_params):
        p = &sc.params[i]
        if listed.any_charset and span_is(s, n, p.name_start, p.name_end, &CHARSET):
            continue  # any charset matches one of them (rule 20)
        h = param_hash(s + p.name_start, p.name_end - p.name_start,
                       s + p.value_start, p.value_end - p.value_start, p.escaped)
        entry = posting(listed.table, listed.mask, h)
        if not entry.count:
            return  # a parameter none of them has: it matches none (rule 9)
        if entry.count < count:
            late, count = set.posted + entry.start, entry.count
    for i in range(count):
        k = late[i]
        if late_matches(s, n, sc, parts, first_param, n_params, &set.offers[k]):
            credit(sc, k, key)


cdef inline long long decided(Scan* sc, Py_ssize_t k) noexcept nogil:
    """Offer ``k``'s deciding key (rule 10), -1 for none: the largest of its
    most specific matching range's and the wildcards' kept aside (its
    type's, "*/*"). An explicit offer (rule 21) is decided so only when a
    range naming it, more specific than any wildcard, was credited to it
    (``rank_decided`` gives the others -1)."""
    cdef long long key = -1, wild = sc.group_keys[sc.set.offers[k].group]
    if sc.credited[k >> 6] >> (k & 63) & 1:
        key = sc.keys[k]
    if wild > key:
        key = wild
    return sc.any_key if sc.any_key > key else key


cdef inline long long rank_decided(Scan* sc, Py_ssize_t k) noexcept nogil:
    """``decided``, but -1 for an explicit offer that no range named (rule
    21): offer ``k`` as ``Negotiator.rank`` and a refusal read it."""
    if sc.set.offers[k].explicit and not sc.credited[k >> 6] >> (k & 63) & 1:
        return -1
    return decided(sc, k)


cdef inline Py_ssize_t first_free(Scan* sc, const Py_ssize_t* order, Py_ssize_t count,
                                  bint no_type_weight) noexcept nogil:
    """The first offer of ``order`` that no range was credited to (and, with
    ``no_type_weight``, whose type no ``type/*`` range names), or -1."""
    cdef Py_ssize_t i, k
    for i in range(count):
        k = order[i]
        if sc.credited[k >> 6] >> (k & 63) & 1:
            continue
        if no_type_weight and sc.group_keys[sc.set.offers[k].group] >= 0:
            continue
        return k
    return -1


cdef Py_ssize_t best_offer(Scan* sc) noexcept nogil:
    """Index of the best acceptable offer (rules 11 and 15), -1 if none: the
    highest score (weight x qs), then the more specific deciding range, then
    server order. Only the offers a range was credited to are read one by
    one; of those only a wildcard reaches, the first that the wildcard's
    order prefers (``Offers.order``) stands for all, as they tie."""
    cdef const Offers* set = sc.set
    cdef Py_ssize_t best = -1, g, k, w
    cdef long long score, best_score = 0, key, spec, best_spec = -1
    cdef unsigned long long bits
    for w in range((set.n + 63) >> 6):  # the offers credited, in server order
        bits = sc.credited[w]
        while bits:
            k = (w << 6) + fa_lowest_bit(bits)
            bits &= bits - 1
            key = decided(sc, k)
            score, spec = (key & WEIGHT_MASK) * set.offers[k].qs, key >> WEIGHT_BITS  # rule 15
            if score > best_score or (score == best_score and score > 0 and spec > best_spec):
                best, best_score, best_spec = k, score, spec
    if not sc.aside:
        return best
    for g in range(-1, set.n_groups):  # "*/*", then each type's wildcard
        if g < 0:  # for the offers of the types no "type/*" names
            # Where each type has its "type/*" (a browser's image value against
            # images), none is left to "*/*": no pass over the order.
            if sc.any_key < 0 or sc.typed == set.n_groups:
                continue
            k = first_free(sc, set.order, set.n_order, True)
            key = sc.any_key
        elif sc.group_keys[g] >= 0:
            k = first_free(sc, set.group_order + set.groups[g].start, set.groups[g].count, False)
            key = sc.group_keys[g]
        else:
            continue
        if k < 0:
            continue
        score, spec = (key & WEIGHT_MASK) * set.offers[k].qs, key >> WEIGHT_BITS
        if score > best_score or (score == best_score and score > 0 and (
            spec > best_spec or (spec == best_spec and k < best)
        )):
            best, best_score, best_spec = k, score, spec
    return best


cdef class _CachedOffers:
    """What every negotiator class shares: the offers as given, the limits, a
    value cache by ``_limits.store``'s policy (one dict, or one per thread
    where threads run at once), ``choose``, ``variant_key``, and equality,
    hashing, ``repr`` and pickling by the constructor's arguments. Each
    class's ``__cinit__`` makes it whole; nothing changes it after."""

    cdef tuple _items                    # the offers, as given
    cdef tuple _values                   # what choose returns, by offer index
    cdef Py_ssize_t _n
    cdef Py_ssize_t _absent              # the choice when the header is absent
    cdef list _keep                      # bytes the C arrays point into
    cdef Py_ssize_t _cache_size
    cdef object _max_length
    cdef Py_ssize_t _limit
    cdef object _caches                  # a dict, or a _limits.ThreadCache of _Values
    cdef fa_memo _serial                 # finds this thread's cache in the memo
    cdef bint _whole                     # its class's ``__cinit__`` ended (``_made_whole``)

    def __cinit__(self, *args, **kwargs):
        # Runs before the class's own: only a class whose own ``__cinit__``
        # sets the C state up may be made (this one and ``_ListNegotiator``
        # would be read with none).
        if not isinstance(self, (Negotiator, EncodingNegotiator, LanguageNegotiator)):
            raise TypeError(f"cannot create '{type(self).__name__}' instances")
        # Until the class's own ``__cinit__`` has made it whole (``_made_whole``),
        # the collector does not list it: code that making it runs (an offers
        # iterable, an ``__index__``) cannot reach a half-made negotiator
        # through ``gc.get_objects``, whose C state would be read unset.
        PyObject_GC_UnTrack(self)

    cdef void _made_whole(self) noexcept:
        """The end of each class's ``__cinit__``: the collector lists it again."""
        self._whole = True
        PyObject_GC_Track(self)

    cdef int _unmade(self) except -1:
        """``RuntimeError`` for a negotiator whose making failed, which only a
        subclass's ``__del__`` can keep (CPython finalizes it): every method
        that reads the C state checks ``_whole`` first."""
        raise RuntimeError(f"this {type(self).__name__} was not made: its constructor raised")

    cdef tuple _read(self, tuple held):
        """``held`` (the offers as given, or what ``choose`` returns), for the
        properties and ``_arguments``: ``_unmade`` for a negotiator not made."""
        if not self._whole:
            self._unmade()
        return held

    def __init__(self, *args, **kwargs):
        """Nothing: ``__new__`` made the negotiator whole. A subclass's
        ``__init__`` may call it with the arguments it was made with."""

    cdef int _set_offers(self, tuple items, tuple values, Py_ssize_t absent, object cache_size,
                         object max_length) except -1:
        """Keep the offers as given, what ``choose`` returns by index and the
        choice when the header is absent; check and keep ``cache_size`` and
        ``max_length`` (``_limits``' rule); make the value cache."""
        self._items, self._values, self._n, self._absent = items, values, len(values), absent
        self._keep = []
        self._cache_size = _checked_cache_size(cache_size)
        self._max_length = _checked_max_length(max_length)
        self._limit = PY_SSIZE_T_MAX if self._max_length is None else self._max_length
        self._caches = _ThreadCache(_Values) if THREADS_AT_ONCE else {}
        fa_new_serial(&self._serial)
        return 0

    cdef Py_ssize_t _compute(self, value) except -2:
        """The best offer's index for ``value`` (each negotiator class's own)."""
        raise NotImplementedError

    cdef Py_ssize_t _index(self, value) except -2:
        """``_compute``'s answer for ``value``, from the value cache when there
        (a str value, or bytes where ``_limits.BYTES_CACHED``, kept by
        ``_limits.store``)."""
        cdef dict cache
        cdef Py_ssize_t index
        cdef PyObject* mine
        if not self._whole:
            self._unmade()
        if self._cache_size == 0 or (type(value) is not str and (
                type(value) is not bytes or not BYTES_CACHED)):
            return self._compute(value)
        if not THREADS_AT_ONCE:
            cache = <dict>self._caches
        else:
            mine = fa_found(&self._serial)
            if mine != NULL:
                cache = <dict>mine
            else:
                cache = <dict>self._caches.cache
                fa_keep(&self._serial, <PyObject*>cache)
        found = cache.get(value)
        if found is not None:
            return <Py_ssize_t>found
        index = self._compute(value)
        _store(cache, self._cache_size, value, index)
        return index

    def choose(self, value, default=None):
        cdef Py_ssize_t index = self._index(value)
        return default if index < 0 else self._values[index]

    def variant_key(self, value):
        cdef Py_ssize_t index = self._index(value)
        return "" if index < 0 else self._values[index]

    # Equality, hashing, repr and pickling by the arguments: ``_arguments``' rule.
    def _arguments(self):  # of one not made, never all checked and kept
        return (self._read(self._items),), {"cache_size": self._cache_size, "max_length": self._max_length}

    def __repr__(self):
        return _ByArguments.__repr__(self)

    def __eq__(self, other):
        return _ByArguments.__eq__(self, other)

    def __hash__(self):
        return _ByArguments.__hash__(self)

    def __reduce__(self):
        """Pickle and copy by the arguments: the copy starts with empty caches."""
        return _ByArguments.__reduce__(self)


cdef int split_chain(Offers* set, bint slots, int index, int size, Py_ssize_t at) noexcept:
    """Split the chain of slots (or of types) from ``index`` by the hash of
    their text into ``size`` chains (a power of two), their heads after a mask
    at ``set.split[at]``; return the split chain's head: -2 - ``at``."""
    cdef int* split = set.split + at
    cdef int* link
    cdef const fa_text* text
    cdef int h
    split[0] = size - 1
    memset(split + 1, -1, size * sizeof(int))  # no head yet
    while index >= 0:  # each of the chain, to the head of its hash's
        link = &set.slots[index].next if slots else &set.groups[index].next
        text = &set.slots[index].subtype if slots else &set.groups[index].type
        h = 1 + (folded_hash(text.text, 0, text.length) & (size - 1))
        index, link[0], split[h] = link[0], split[h], index
    return -2 - <int>at


cdef class Negotiator(_CachedOffers):
    # The first lines are the constructor's signature for ``inspect`` (CPython
    # reads a type's ``__text_signature__`` from them); names resolve here.
    """Negotiator(offers, *, cache_size=_DEFAULT_CACHE_SIZE, max_length=_DEFAULT_MAX_LENGTH)
--

Offers parsed once; the best of them for each request's Accept value.

    ``choose``, ``choose_index``, ``variant_key`` and ``rank`` per request;
    the answers for recent values (up to ``cache_size``, of at most 1,024
    characters each) are cached. ``max_length`` as for ``parse``. The hot-path
    entry point.
    """

    cdef Offers _set

    def __cinit__(self, *args, **kwargs):
        cdef Py_ssize_t i, k, j, n, size, start, n_posts
        cdef COffer* o
        cdef Slot* slot
        cdef Group* group
        cdef OfferParam* param
        cdef LateList* listed
        cdef Posting* table
        cdef unsigned long long hashed
        cdef Offers* set = &self._set
        cdef list params, late, spans, sizes, heads, splits
        offers, cache_size, max_length = _negotiator_arguments(None, *args, **kwargs)
        items = _offers_tuple(offers, "offers")
        layout = _OfferSet(_parse_offers(items))  # the offers, by essence and by type
        parsed = layout.offers
        self._set_offers(items, layout.values, layout.absent_best, cache_size, max_length)
        plan = _OfferTables(layout, MASK_BITS, LONG_CHAIN)  # what goes where
        params, late, spans, sizes = plan.params, plan.late, plan.spans, plan.table_sizes
        set.n = n = len(parsed)
        set.n_groups = len(plan.types)
        set.all, set.with_params = plan.all, plan.with_params
        size, n_posts = sum(sizes), plan.n_posts
        # One block, zeroed: the offers, their parameters, the groups, the two
        # orders, the late offers and their lists, the slots, the lists'
        # tables and the offers their entries list, the splits.
        set.offers = <COffer*>PyMem_Calloc(1, n * sizeof(COffer) + len(params) // 2 * sizeof(OfferParam) + (
            set.n_groups * sizeof(Group) + (2 * n + len(late)) * sizeof(Py_ssize_t)
            + len(sizes) * sizeof(LateList) + len(plan.subtypes) * sizeof(Slot)
            + size * sizeof(Posting) + n_posts * sizeof(Py_ssize_t)
            + (len(plan.splits) // 4 + sum(plan.splits[3::4])) * sizeof(int) + 1))
        if set.offers == NULL:
            raise MemoryError()
        param = <OfferParam*>(set.offers + n)
        set.groups = <Group*>(param + len(params) // 2)
        set.order = <Py_ssize_t*>(set.groups + set.n_groups)
        set.group_order = set.order + n
        set.late, set.n_late = set.group_order + n, spans[1]
        for i in range(len(late)):
            set.late[i] = late[i]
        set.late_lists = <LateList*>(set.late + len(late))
        set.slots = <Slot*>(set.late_lists + len(sizes))
        table = <Posting*>(set.slots + len(plan.subtypes))  # every ``LateList``'s
        set.posted = <Py_ssize_t*>(table + size)
        set.split = <int*>(set.posted + n_posts)
        for k in range(0, len(params), 2):  # every offer's, in server order
            hold(self._keep, params[k], &param[k >> 1].name)
            hold(self._keep, params[k + 1], &param[k >> 1].value)
            param[k >> 1].fold = params[k] == "charset"
        for i in range(n):
            offer = parsed[i]
            o = &set.offers[i]
            o.qs = offer.qs
            o.charset_free = plan.charset_free[i]
            o.explicit = offer.explicit
            o.bit = <unsigned long long>1 << min(i, MASK_BITS - 1)
            o.params, o.n_params = param, plan.param_counts[i]
            param += o.n_params
        start = 0
        for i in range(len(sizes)):
            listed, size = &set.late_lists[i], sizes[i]
            listed.with_params, listed.table, listed.mask = spans[3 * i + 2], table, size - 1
            by_hash = {}
            for j in range(spans[3 * i], spans[3 * i] + spans[3 * i + 2]):
                o = &set.offers[set.late[j]]
                for k in range(o.n_params):
                    hashed = param_hash(o.params[k].name.text, o.params[k].name.length,
                                        o.params[k].value.text, o.params[k].value.length, False)
                    list_under(by_hash, hashed, set.late[j])
                listed.any_charset |= o.charset_free
            start = enter(table, listed.mask, by_hash, set.posted, start)
            table += size
        set.n_order = len(layout.order)
        for i in range(set.n_order):
            set.order[i] = layout.order[i]
        memset(set.first_group, -1, sizeof(set.first_group))
        j = 0
        for k in range(set.n_groups):
            group = &set.groups[k]
            hold(self._keep, plan.types[k], &group.type)
            group.start, group.count, group.mask = j, plan.group_counts[k], plan.group_masks[k]
            group.late, group.n_late = spans[3 * (1 + k)], spans[3 * (1 + k) + 1]
            memset(group.subtypes, -1, sizeof(group.subtypes))
            for i in range(j, j + group.count):
                set.group_order[i] = plan.group_order[i]
                set.offers[set.group_order[i]].group = k
            j += group.count
        heads = plan.type_heads  # each chain in wildcard order
        for i in range(0, len(heads), 2):
            set.groups[heads[i + 1]].next = set.first_group[heads[i]]
            set.first_group[heads[i]] = heads[i + 1]
        for i in range(len(plan.subtypes)):
            slot = &set.slots[i]
            hold(self._keep, plan.subtypes[i], &slot.subtype)
            slot.parts = PARTS_SUFFIX if plan.slot_parts_suffix[i] else PARTS_FULL
            k = 3 * (1 + set.n_groups + i)
            slot.late, slot.n_late, slot.mask = spans[k], spans[k + 1], plan.slot_masks[i]
            group = &set.groups[<Py_ssize_t>plan.slot_groups[i]]
            j = slot.subtype.text[0] & 31
            slot.next, group.subtypes[j] = group.subtypes[j], i
        splits = plan.splits  # each long chain, split (``find_offers``)
        start = 0
        for i in range(0, len(splits), 4):
            k, j, size = splits[i], splits[i + 1], splits[i + 3]
            if k < 0:
                set.first_group[j] = set.first_group[<Py_ssize_t>splits[i + 2]] = split_chain(
                    set, False, set.first_group[j], size, start)
            else:
                set.groups[k].subtypes[j] = split_chain(set, True, set.groups[k].subtypes[j], size, start)
            start += size + 1
        self._made_whole()

    def __dealloc__(self):
        PyMem_Free(self._set.offers)  # with the slots

    @property
    def offers(self):
        """The offers, in server order, as given."""
        return self._read(self._items)

    @property
    def media_types(self):
        """The offers' media types, in server order (a pair gives its first)."""
        return self._read(self._values)

    cdef Py_ssize_t _compute(self, value) except -2:
        """Index of the best acceptable offer (rules 11 and 15), -1 if none."""
        cdef Scan sc
        if value is None:
            return self._absent
        scan_init(&sc)
        try:
            score_value(self, value, &sc)
            return best_offer(&sc)
        finally:
            scan_free(&sc)

    cpdef Py_ssize_t choose_index(self, value) except -2:
        return self._index(value)

    def rank(self, value):
        cdef Scan sc
        cdef Py_ssize_t i
        cdef long long key, weight
        cdef COffer* offers = self._set.offers
        if not self._whole:
            self._unmade()
        scored = []
        if value is None:  # every offer but an explicit one at q=1: its score is its qs
            for i in range(self._n):
                if offers[i].qs > 0 and not offers[i].explicit:
                    scored.append((-1000 * offers[i].qs, 0, i))
        else:
            scan_init(&sc)
            try:
                score_value(self, value, &sc)
                for i in range(self._n):
                    key = rank_decided(&sc, i)
                    weight = 0 if key < 0 else key & WEIGHT_MASK
                    if weight * offers[i].qs > 0:
                        scored.append((-weight * offers[i].qs, -(key >> WEIGHT_BITS), i))
            finally:
                scan_free(&sc)
        scored.sort()
        ranked = []
        for score, _, i in scored:
            ranked.append((self._values[i], -score / 1_000_000))
        return ranked

    def _refusal(self, value):
        """For a refusal (docs/rules.md rule 16): each offer's weight in
        thousandths for ``value``, -1 where no range matches it (rule 10),
        and where the members that lenient reading skipped start (every
        member read as ``parse`` reads it)."""
        cdef Scan sc
        cdef Py_ssize_t i, n
        cdef long long key
        cdef const unsigned char* s
        if not self._whole:
            self._unmade()
        weights = [-1] * self._n
        if value is None:
            return weights, ()
        value = read_once(value, ACCEPT)
        _owner = read_checked(value, &s, &n, self._limit, ACCEPT)  # keeps the buffer alive
        scan_init(&sc)
        try:
            scan(s, n, False, &sc)
            skipped = skipped_members(&sc, value, False, ACCEPT)
        finally:
            scan_free(&sc)
        scan_init(&sc)  # the weights as ``rank`` reads them
        try:
            score_value(self, value, &sc)
            for i in range(self._n):
                key = rank_decided(&sc, i)
                if key >= 0:
                    weights[i] = key & WEIGHT_MASK
        finally:
            scan_free(&sc)
        return weights, skipped.starts() if skipped else ()


cdef inline int score_value(Negotiator self, object value, Scan* sc) except -1:
    """Scan ``value`` (not None) into ``sc`` (made by ``scan_init``; the
    caller frees it) against the negotiator's offers: the ranges credited to
    them, the wildcards kept aside (``decided``, ``best_offer``). The per-call
    arrays start with none credited, no wildcard, on the stack up to
    ``ON_STACK`` offers."""
    cdef const unsigned char* s
    cdef Py_ssize_t n, k
    cdef const Offers* set = &self._set
    cdef Py_ssize_t words = (set.n + 63) >> 6
    _owner = read_checked(value, &s, &n, self._limit, ACCEPT)  # keeps the buffer alive
    sc.set = set
    if set.n > ON_STACK:  # keys, group_keys and credited in one block
        sc.on_heap = True
        sc.keys = <long long*>PyMem_Malloc((2 * set.n + words) * sizeof(long long))
        if sc.keys == NULL:
            raise MemoryError()
        sc.group_keys = sc.keys + set.n
        sc.credited = <unsigned long long*>(sc.group_keys + set.n)
    sc.credited[0] = 0
    for k in range(1, words):
        sc.credited[k] = 0
    for k in range(TYPES_SET_AT_ONCE):  # a constant count: a few stores, not a call
        sc.group_keys[k] = -1
    for k in range(TYPES_SET_AT_ONCE, set.n_groups):
        sc.group_keys[k] = -1
    sc.any_key, sc.typed, sc.aside = -1, 0, False
    scan(s, n, False, sc)
    return 0


# --- the one-call forms --------------------------------------------------------

# Each is a built-in of its own (METH_FASTCALL) that keeps its arguments
# borrowed from the call: a server passes the same offers (and max_length's
# default) on every request, and Cython's argument parsing takes a reference
# to each, a count that every thread calling would write
# (docs/free-threading.md).

cdef int read_arguments(str name, PyObject* names, PyObject** args, Py_ssize_t nargs,
                        PyObject* kwnames, PyObject** out) except -1:
    """A vectorcall's arguments for the parameters ``names`` (a tuple, passed
    uncounted) into ``out`` (value, offers, default, max_length), borrowed,
    with a Python function's TypeErrors; an absent ``default`` is None."""
    cdef Py_ssize_t i, k, count = PyTuple_GET_SIZE(names)
    cdef Py_ssize_t keywords = 0 if kwnames == NULL else PyTuple_GET_SIZE(kwnames)
    cdef PyObject* key
    out[2], out[3] = <PyObject*>None, <PyObject*>DEFAULT_MAX_LENGTH
    if nargs == 2 and kwnames == NULL:  # the common call
        out[0], out[1] = args[0], args[1]
        return 0
    for k in range(2):
        out[k] = args[k] if k < nargs else NULL
    for i in range(keywords):  # before the count of positional ones, as CPython does
        key = PyTuple_GET_ITEM(kwnames, i)
        for k in range(count):  # names are interned: equal ones are mostly the same
            if key == PyTuple_GET_ITEM(names, k) or PyUnicode_Compare(key, PyTuple_GET_ITEM(names, k)) == 0:
                break
        else:
            raise TypeError(f"{name}() got an unexpected keyword argument {<object>key!r}")
        if k < 2 and k < nargs:
            raise TypeError(f"{name}() got multiple values for argument {<object>key!r}")
        out[3 if k == count - 1 else k] = args[nargs + i]  # max_length, the last name, to out[3]
    if nargs > 2:  # every keyword is a keyword-only one by now
        given = f" positional arguments (and {keywords} keyword-only argument{'s' * (keywords > 1)})"
        raise TypeError(
            f"{name}() takes 2 positional arguments but {nargs}{given * (keywords > 0)} were given")
    if out[0] == NULL or out[1] == NULL:
        missing = []
        for k in range(2):
            if out[k] == NULL:
                missing.append(repr(<object>PyTuple_GET_ITEM(names, k)))
        raise TypeError(f"{name}() missing {len(missing)} required positional argument"
                        f"{'s' * (len(missing) > 1)}: {' and '.join(missing)}")
    return 0


#: Where threads run at once, each thread's own ``Kept`` of each one-call form.
cdef object _per_thread = _thread_local()


cdef bint same_items(PyObject* offers, PyObject* items) noexcept:
    """``offers`` is a list holding exactly the objects of the tuple ``items``
    (an empty list has no item array: memcmp is not given its NULL)."""
    cdef Py_ssize_t n = PyTuple_GET_SIZE(items)
    return offers.ob_type == &PyList_Type and PyList_GET_SIZE(offers) == n and (n == 0 or memcmp(
        PySequence_Fast_ITEMS(offers), PySequence_Fast_ITEMS(items), n * sizeof(PyObject*)) == 0)


@cython.final
cdef class Kept:
    """A one-call form's negotiators, kept by ``_limits.kept_negotiator``'s
    policy and remembering no values (``_limits.COMPILED_VALUES_KEPT``), and
    its last call's (offers, max_length, their tuple, negotiator): a server
    passes the same offers every time, so no key is built for them. Where
    threads run at once, each thread has its own (``own``)."""

    cdef object make                     # what makes a negotiator for offers
    cdef str noun, name                  # the offers' name; this thread's attribute
    cdef bint one                        # the offers are one media type (``quality``)
    cdef tuple names                     # its parameters (``read_arguments``)
    cdef dict negotiators
    cdef tuple last
    cdef fa_memo _serial                 # finds this thread's own Kept in the memo

    def __cinit__(self, make, str noun, str name, bint one=False):
        self.make, self.noun, self.name, self.one = make, noun, name, one
        self.names = ("value", noun, "max_length") if one else ("value", noun, "default", "max_length")
        # No argument is a new object: a first call never passes for the last
        # (offers, max_length None, an empty tuple or list of them included).
        none = object()
        self.negotiators, self.last = {}, (none, none, (none,), None)
        fa_new_serial(&self._serial)

    def __dealloc__(self):
        fa_forget(<PyObject*>self)

    cdef Kept own(self):
        """This thread's own ``Kept`` (where threads run at once)."""
        cdef PyObject* mine = fa_found(&self._serial)
        if mine != NULL:
            return <Kept>mine
        found = getattr(_per_thread, self.name, None)
        if found is None:
            found = Kept(self.make, self.noun, self.name, self.one)
            setattr(_per_thread, self.name, found)
        fa_keep(&self._serial, <PyObject*>found)
        return <Kept>found

    cdef tuple remember(self, object offers, object max_length):
        """The state of a call with other offers than the last: (offers,
        max_length, their tuple, their negotiator, which
        ``_limits.kept_negotiator`` keeps), kept as the last. A tuple or a list
        is taken without ``_member.offers_tuple``, which refuses a str or bytes."""
        if self.one:
            items = (offers,)
        elif type(offers) is tuple:
            items = offers
        elif type(offers) is list:
            items = tuple(<list>offers)
        else:
            items = _offers_tuple(offers, self.noun)
        made = _kept_negotiator(self.negotiators, self.make, items, max_length, _COMPILED_VALUES_KEPT)
        self.last = state = (offers, max_length, items, made)
        return state  # not self.last again: the caller's own, whatever the GIL

    cdef object call(self, PyObject** args, Py_ssize_t nargs, PyObject* kwnames):
        """The form, given its arguments as a Python function is (borrowed:
        ``read_arguments``): the negotiator kept for these offers (the last
        call's without a look-up) chooses, and the answer is this call's own
        offer's media type (``choose``'s); ``quality``'s is the weight of the
        best range for its one media type. Called on the module's own
        ``Kept``, so that no thread writes its count (nor the offers')."""
        cdef PyObject* a[4]
        cdef Py_ssize_t index
        cdef list ranked
        read_arguments(self.name, <PyObject*>self.names, args, nargs, kwnames, a)
        cdef Kept kept = self.own() if THREADS_AT_ONCE else self
        cdef tuple held = kept.last  # this thread's own (where threads run at once)
        cdef PyObject* last = <PyObject*>held
        # The last call's offers: the same tuple, quality's same str, or a list
        # of the same objects (a list written in the call is a new one each time).
        if not (a[3] == PyTuple_GET_ITEM(last, 1) and (
                a[1] == PyTuple_GET_ITEM(last, 2)
                or (a[1] == PyTuple_GET_ITEM(last, 0) if self.one
                    else same_items(a[1], PyTuple_GET_ITEM(last, 2))))):
            held = kept.remember(<object>a[1], <object>a[3])
            last = <PyObject*>held
        if self.one:
            ranked = (<Negotiator>PyTuple_GET_ITEM(last, 3)).rank(<object>a[0])
            return ranked[0][1] if ranked else 0.0
        index = (<_CachedOffers>PyTuple_GET_ITEM(last, 3))._compute(<object>a[0])
        if index < 0:
            return <object>a[2]
        offer = (<tuple>PyTuple_GET_ITEM(last, 2))[index]  # this call's own object
        return offer if type(offer) is str else _offer_value(offer)


cdef Kept NEGOTIATE = Kept(Negotiator, "offers", "negotiate")
#: ``quality``'s Negotiators, one for each recent (media type, max_length).
cdef Kept QUALITY = Kept(_partial(_media_type_negotiator, Negotiator), "media_type", "quality", True)


# --- Accept-Encoding and Accept-Language (RFC 9110 §12.5.3-4) -------------------
#
# Each member is one name and an optional weight (``_coding.scan_coding``,
# ``_language.scan_language``, whose errors and positions these mirror);
# negotiating, each is scored as soon as it is read: no Python object per member.

cdef int scan_weight(const unsigned char* s, Py_ssize_t n, Py_ssize_t p, int end_code,
                     Py_ssize_t* out, int* weight) noexcept nogil:
    """``_member.scan_weight``: ``[ OWS ";" OWS "q=" qvalue ] OWS`` after a name
    ending at ``p``, then a comma or the end; 0 and the member's end in ``out``,
    or a code and its position."""
    cdef Py_ssize_t v, u
    cdef int w
    p = skip_ows(s, p)
    if p >= n or s[p] == 44:
        out[0], weight[0] = p, 1000
        return 0
    if s[p] != 59:
        return failed(out, p, end_code)
    p = skip_ows(s, p + 1)
    if LOWER[s[p]] != 113 or CLASS[s[p + 1]] & C_TCHAR:  # s[p + 1] read past a 'q' only
        return failed(out, p, EXPECTED_WEIGHT)
    if s[p + 1] != 61:
        return failed(out, p + 1, EXPECTED_EQUALS)
    v = p + 2
    if s[v] == 34:
        return failed(out, v, BAD_WEIGHT)  # a quoted weight
    u = skip_token(s, v)
    if u == v:
        return failed(out, v, EXPECTED_QVALUE)
    w = parse_weight(s, v, u, True)
    if w < 0:  # the legacy '.5' too: the exact grammar here
        return failed(out, v, BAD_WEIGHT)
    p = skip_ows(s, u)
    if p < n and s[p] != 44:
        return failed(out, p, EXPECTED_COMMA)
    out[0], weight[0] = p, w
    return 0


cdef int scan_item(const unsigned char* s, Py_ssize_t n, Py_ssize_t start, int grammar,
                   Py_ssize_t* name_end, Py_ssize_t* out, int* weight) noexcept nogil:
    """One member at ``start`` (not OWS, not a comma): a language range (``*``,
    or 1-8 letters then ``-`` and 1-8 letters or digits, again and again), or
    else a coding (a token); its name ends at ``name_end``."""
    cdef Py_ssize_t p = start, k
    if grammar != LANGUAGE_GRAMMAR:
        p = skip_token(s, start)
        if p == start:
            return failed(out, start, EXPECTED_CODING)
        name_end[0] = p
        return scan_weight(s, n, p, EXPECTED_CODING_END, out, weight)
    if s[start] == 42:
        p = start + 1
    else:
        while p - start < 9 and CLASS[s[p]] & C_ALPHA:
            p += 1
        if p == start:
            return failed(out, start, EXPECTED_LANGUAGE)
        if p - start > 8:
            return failed(out, p - 1, LONG_SUBTAG)
        while s[p] == 45:
            k = p + 1
            while k - p < 10 and CLASS[s[k]] & (C_ALPHA | C_DIGIT):
                k += 1
            if k == p + 1:
                return failed(out, k, EXPECTED_SUBTAG)
            if k - p > 9:
                return failed(out, k - 1, LONG_SUBTAG)
            p = k
    name_end[0] = p
    return scan_weight(s, n, p, EXPECTED_RANGE_END, out, weight)


cdef int scan_items(const unsigned char* s, Py_ssize_t n, bint strict, int grammar,
                    Scan* sc) except -1:
    """Every member of a value into ``sc`` (a Range: the name's span, the
    weight) and every skip; in strict mode the first violation is the only skip."""
    cdef Py_ssize_t i = 0, pos, name_end, end
    cdef int code, weight
    cdef Range* r
    while True:
        i = skip_separators(s, i)
        if i >= n:
            return 0
        code = scan_item(s, n, i, grammar, &name_end, &pos, &weight)
        if code:
            end = member_end(s, n, i)
            push_skip(sc, i, end, pos, code)
            if strict:
                return 0
            i = end
        else:
            r = push_range(sc)
            r.type_start, r.type_end, r.weight = i, name_end, weight
            i = pos


cdef struct CListOffer:
    fa_text name                         # lower-case: a coding, or a tag (subtags joined by '-')
    fa_text alias                        # a coding's x- name (RFC 9110 §8.4.1.1, §8.4.1.3); text NULL: none
    bint identity                        # the coding ``identity``


cdef struct ListTable:
    # The offers by the ``folded_hash`` of each text that finds them (a
    # coding's name and x- alias, RFC 9110 §8.4.1.1, §8.4.1.3; each prefix of
    # a tag that ends a subtag, and by ``whole_key`` the tag itself): a member
    # reads only those, however many offers there are (docs/bad-input.md).
    Posting* table
    unsigned long long mask
    Py_ssize_t* posted


cdef Py_ssize_t best_coding(const unsigned char* s, Py_ssize_t n, CListOffer* offers,
                            Py_ssize_t n_offers, const ListTable* table,
                            long long* own) noexcept nogil:
    """``_coding.best_coding`` over the bytes of a present value (lenient).

    ``own`` is scratch for each offer's highest own weight (-1: none); left
    holding each offer's score (``_coding.coding_scores``) as one key,
    ``weight << 2 | source``, below 4 where it is not acceptable.
    """
    cdef Py_ssize_t i = 0, k, pos, name_end, best = -1
    cdef int code, w, star = -1, lowest = 1000, source
    cdef long long best_key = 3  # a weight of 0 at most
    cdef const Posting* entry
    cdef const CListOffer* o
    for k in range(n_offers):
        own[k] = -1
    while True:
        i = skip_separators(s, i)
        if i >= n:
            break
        code = scan_item(s, n, i, CODING_GRAMMAR, &name_end, &pos, &w)
        if code:
            i = member_end(s, n, i)
            continue
        if 0 < w < lowest:
            lowest = w
        if name_end == i + 1 and s[i] == 42:
            if w > star:
                star = w
        else:
            entry = posting(table.table, table.mask, folded_hash(s, i, name_end))
            for k in range(entry.start, entry.start + entry.count):
                o = &offers[table.posted[k]]  # named so, or sharing the hash
                if own[table.posted[k]] < w and (
                    span_is(s, n, i, name_end, &o.name)
                    or (o.alias.text != NULL and span_is(s, n, i, name_end, &o.alias))
                ):
                    own[table.posted[k]] = w
        i = pos
    for k in range(n_offers):
        if own[k] >= 0:
            w, source = <int>own[k], 2
        elif star >= 0:
            w, source = star, 1
        elif offers[k].identity:
            w, source = lowest, 0
        else:
            continue  # no weight: -1 stays
        own[k] = w << 2 | source
        if own[k] > best_key:  # on a tie the earlier offer stays
            best, best_key = k, own[k]
    return best


cdef enum:
    # _language's relations of a range to a tag, closest last
    STAR = 0
    SAME_LANGUAGE = 1
    LOOKUP = 2
    FILTERING = 3
    EXACT = 4
    # a deciding key: (shared << SHARED_SHIFT) | (relation << RELATION_SHIFT) | weight
    RELATION_SHIFT = 11                  # a weight (at most 1000) fits below
    SHARED_SHIFT = 14                    # a relation fits below

if (STAR, SAME_LANGUAGE, LOOKUP, FILTERING, EXACT, RELATION_SHIFT, SHARED_SHIFT) != (
    _language.STAR, _language.SAME_LANGUAGE, _language.LOOKUP, _language.FILTERING, _language.EXACT,
    _language.RELATION_SHIFT, _language.SHARED_SHIFT
):
    raise ImportError("_scan.pyx and _language pack a language's deciding key differently")


cdef inline long long tag_key(const unsigned char* s, Py_ssize_t a, Py_ssize_t b, int w,
                              const unsigned char* t, Py_ssize_t length) noexcept nogil:
    """``_language.relation`` of the range ``s[a:b]`` (not ``*``) to one tag,
    with the range's weight, as a deciding key; -1: the range does not relate.

    Subtags are compared in step until one differs or either side ends.
    """
    cdef Py_ssize_t i = a, k = 0, k0, first = 0
    cdef long long shared = 0, related
    while True:
        k0 = k
        while i < b and k < length and s[i] != 45 and LOWER[s[i]] == t[k]:
            i += 1
            k += 1
        if (i < b and s[i] != 45) or (k < length and t[k] != 45):
            break  # this subtag differs
        shared += 1
        if shared == 1:
            first = k  # the length of the first subtag
        if i == b:  # every subtag of the range
            related = EXACT if k == length else FILTERING
            return (shared << SHARED_SHIFT) | (related << RELATION_SHIFT) | w
        if k == length:  # the range goes on past the tag
            if w and k - k0 > 1:  # a truncation never ends with a singleton
                return (shared << SHARED_SHIFT) | (LOOKUP << RELATION_SHIFT) | w
            break
        i += 1
        k += 1
    if w == 0 or shared == 0 or first == 1:
        return -1
    return (shared << SHARED_SHIFT) | (SAME_LANGUAGE << RELATION_SHIFT) | w


cdef inline bint tag_before(long long key, Py_ssize_t at, long long other,
                            Py_ssize_t other_at) noexcept nogil:
    """Whether a tag decided by ``key`` at member offset ``at`` goes before one
    decided by ``other`` at ``other_at``: ``_language._preference``'s order
    but for server order (the weight, a language range over ``*``, the
    member listed first, the closer relation, more shared subtags)."""
    cdef long long mask = (1 << RELATION_SHIFT) - 1
    cdef long long related = (key >> RELATION_SHIFT) & 7
    cdef long long other_related = (other >> RELATION_SHIFT) & 7
    if (key & mask) != (other & mask):
        return (key & mask) > (other & mask)
    if (related == STAR) != (other_related == STAR):
        return other_related == STAR
    if at != other_at:
        return at < other_at
    if related != other_related:
        return related > other_related
    return (key >> SHARED_SHIFT) > (other >> SHARED_SHIFT)


cdef inline void relate(const unsigned char* s, Py_ssize_t i, Py_ssize_t name_end, int w,
                        const CListOffer* tags, const ListTable* table, unsigned long long h,
                        long long* keys) noexcept nogil:
    """Relate the range ``s[i:name_end]`` (weight ``w``) to the tags ``table``
    lists under the key ``h`` (and any sharing it), each keeping its deciding
    key (``best_language``'s ``keys``)."""
    cdef const Posting* entry = posting(table.table, table.mask, h)
    cdef Py_ssize_t j, k
    cdef long long key
    for j in range(entry.start, entry.start + entry.count):
        k = table.posted[j]
        key = tag_key(s, i, name_end, w, tags[k].name.text, tags[k].name.length)
        if key > keys[2 * k]:  # on a tie the first listed stays
            keys[2 * k] = key
            keys[2 * k + 1] = i


cdef Py_ssize_t best_language(const unsigned char* s, Py_ssize_t n, CListOffer* tags,
                              Py_ssize_t n_tags, const ListTable* table,
                              long long* keys) noexcept nogil:
    """``_language.best_language`` over the bytes of a present value (lenient).

    ``keys`` is left holding two numbers a tag: its deciding key (``tag_key``;
    -1: none) and the offset of the member that holds it. A range reads only
    the tags it can relate to (``table``): with q = 0 those it is a prefix
    of (exact, filtering); else those of its first subtag, or where that is
    a singleton, which names no language, those it is a prefix of and each
    tag that is one of its truncations (lookup).
    """
    cdef Py_ssize_t i = 0, j, k, pos, name_end, found_by, best = -1, star_at = 0
    cdef int code, w, star = -1
    cdef unsigned long long h
    cdef long long key
    for k in range(n_tags):
        keys[2 * k] = -1
    while True:
        i = skip_separators(s, i)
        if i >= n:
            break
        code = scan_item(s, n, i, LANGUAGE_GRAMMAR, &name_end, &pos, &w)
        if code:
            i = member_end(s, n, i)
            continue
        if s[i] == 42:  # '*': the highest, the first listed on a tie
            if w > star:
                star, star_at = w, i
            i = pos
            continue
        found_by = name_end
        if w:  # lookup and the same language reach past a prefix
            found_by = i
            while found_by < name_end and s[found_by] != 45:
                found_by += 1
            if found_by == i + 1:  # x-, i-: the range as a prefix, and lookup
                found_by, h = name_end, FNV_BASIS
                for j in range(i, name_end):
                    if s[j] == 45:  # a truncation (``tag_key`` refuses one ending with a singleton)
                        relate(s, i, name_end, w, tags, table, whole_key(h), keys)
                    h = fnv_fold(h, s, j, j + 1, False)
        relate(s, i, name_end, w, tags, table, folded_hash(s, i, found_by), keys)
        i = pos
    for k in range(n_tags):
        if keys[2 * k] < 0 and star >= 0:  # '*': the relation STAR, no subtag shared
            keys[2 * k] = star
            keys[2 * k + 1] = star_at
        key = keys[2 * k]
        if key < 0 or (key & ((1 << RELATION_SHIFT) - 1)) == 0:
            continue
        if best < 0 or tag_before(key, keys[2 * k + 1], keys[2 * best], keys[2 * best + 1]):
            best = k
    return best


cdef class _ListNegotiator(_CachedOffers):
    """A list header's negotiator beyond ``_CachedOffers``: the description
    ``_kind``, the offers parsed once by its offer set and held as C structs,
    a value's scan by its grammar and scorer, and the cached choice."""

    cdef _Kind _kind
    cdef CListOffer* _offers
    cdef ListTable _table

    def __dealloc__(self):
        PyMem_Free(self._offers)
        PyMem_Free(self._table.table)

    cdef int _set_up(self, _Kind kind, object offers, object cache_size,
                     object max_length) except -1:
        """What ``__cinit__`` does for every list header, by its description."""
        cdef Py_ssize_t i, j, n, size, posted
        cdef unsigned long long h
        cdef CListOffer* o
        cdef bint codings = kind.grammar != LANGUAGE_GRAMMAR
        parsed = kind.offers(offers)
        names = parsed.names if codings else parsed.texts
        n = len(names)
        self._set_offers(parsed.values, parsed.values, parsed.absent_best, cache_size, max_length)
        self._kind = kind
        self._offers = <CListOffer*>PyMem_Calloc(max(n, 1), sizeof(CListOffer))
        if self._offers == NULL:
            raise MemoryError()
        by_hash = {}  # the ``ListTable``: each text that finds an offer, by its hash
        for i in range(n):
            o = &self._offers[i]
            hold(self._keep, names[i], &o.name)
            if codings:
                list_under(by_hash, folded_hash(o.name.text, 0, o.name.length), i)
                for alias, target in _ALIASES.items():
                    if target == names[i]:
                        hold(self._keep, alias, &o.alias)
                        list_under(by_hash, folded_hash(o.alias.text, 0, o.alias.length), i)
                o.identity = names[i] == _IDENTITY
            else:  # each prefix ending a subtag (``folded_hash`` as it goes), the tag whole
                h = FNV_BASIS
                for j in range(o.name.length):
                    if o.name.text[j] == 45:
                        list_under(by_hash, fnv_key(h), i)
                    h = fnv_fold(h, o.name.text, j, j + 1, False)
                list_under(by_hash, fnv_key(h), i)  # the tag, as a prefix of itself
                list_under(by_hash, whole_key(h), i)
        size = 1 << (2 * len(by_hash)).bit_length()  # at most half full
        posted = 0  # by a loop: cython/cython#7748, tests/test_stress.py
        for offered in by_hash.values():
            posted += len(offered)
        self._table.table = <Posting*>PyMem_Calloc(1, size * sizeof(Posting) + posted * sizeof(Py_ssize_t))
        if self._table.table == NULL:
            raise MemoryError()
        self._table.mask = size - 1
        self._table.posted = <Py_ssize_t*>(self._table.table + size)
        enter(self._table.table, self._table.mask, by_hash, self._table.posted, 0)
        self._made_whole()
        return 0

    cdef Py_ssize_t _scored(self, const unsigned char* s, Py_ssize_t n, long long* keys) noexcept:
        """Index of the best acceptable offer, -1 if none: the scorer of the
        header's grammar over the bytes of a present value, which leaves each
        offer's key in ``keys`` (``best_coding``: one number an offer;
        ``best_language``: two, the key and the deciding member's offset)."""
        if self._kind.grammar == LANGUAGE_GRAMMAR:
            return best_language(s, n, self._offers, self._n, &self._table, keys)
        return best_coding(s, n, self._offers, self._n, &self._table, keys)

    cdef Py_ssize_t _compute(self, value) except -2:
        cdef const unsigned char* s
        cdef Py_ssize_t n, found
        cdef long long small[2 * SMALL]
        cdef long long* keys = small
        if value is None:
            return self._absent
        _owner = read_checked(value, &s, &n, self._limit, self._kind.field)  # owns the buffer
        if self._n > SMALL:
            keys = <long long*>PyMem_Malloc(2 * self._n * sizeof(long long))
            if keys == NULL:
                raise MemoryError()
        found = self._scored(s, n, keys)
        if keys != small:
            PyMem_Free(keys)
        return found

    def choose_index(self, value):
        return self._index(value)

    def rank(self, value):
        return self._sorted(value, False)

    def _ranked(self, value):
        """``rank`` as (offer index, weight in thousandths): what a value this
        engine parsed ranks by (``_types._Members``)."""
        return self._sorted(value, True)

    cdef list _sorted(self, value, bint by_index):
        """``rank``, or ``_ranked`` (``by_index``): the scorer's keys in
        ``_coding.rank_codings``'s or ``_language.rank_languages``'s order."""
        cdef const unsigned char* s
        cdef Py_ssize_t n, k, index
        cdef long long key, related, weight
        cdef long long* keys
        if not self._whole:
            self._unmade()
        scored = []
        if value is None:  # every offer at 1: identity first, then server order
            for k in range(self._n):
                scored.append((-1000, not self._offers[k].identity, k))
        else:
            _owner = read_checked(value, &s, &n, self._limit, self._kind.field)  # owns the buffer
            held = PyBytes_FromStringAndSize(NULL, 2 * self._n * sizeof(long long))
            keys = <long long*>PyBytes_AS_STRING(held)
            self._scored(s, n, keys)
            for k in range(self._n):
                if self._kind.grammar != LANGUAGE_GRAMMAR:
                    key = keys[k]  # weight << 2 | source
                    if key >= 4:  # weight above 0
                        scored.append((-(key >> 2), -(key & 3), k))
                    continue
                key = keys[2 * k]
                weight = key & ((1 << RELATION_SHIFT) - 1) if key > 0 else 0
                related = (key >> RELATION_SHIFT) & 7
                if weight:
                    scored.append((-weight, related == STAR, keys[2 * k + 1], -related,
                                   -(key >> SHARED_SHIFT), k))
        scored.sort()
        for k in range(len(scored)):  # each sort key, its offer's index last
            item = scored[k]
            index = item[len(item) - 1]
            scored[k] = (index, -item[0]) if by_index else (self._items[index], -item[0] / 1000)
        return scored


cdef class EncodingNegotiator(_ListNegotiator):
    """EncodingNegotiator(codings, *, cache_size=_DEFAULT_CACHE_SIZE, max_length=_DEFAULT_MAX_LENGTH)
--

Codings validated once; the best of them for each request's
    Accept-Encoding value (RFC 9110 §12.5.3).

    ``choose``, ``choose_index``, ``variant_key`` and ``rank`` per request;
    the answers for recent values (up to ``cache_size``, of at most 1,024
    characters each) are cached. ``max_length`` as for ``parse_encoding``.
    """

    def __cinit__(self, *args, **kwargs):
        codings, cache_size, max_length = _encoding_negotiator_arguments(None, *args, **kwargs)
        self._set_up(ENCODING, codings, cache_size, max_length)

    @property
    def codings(self):
        """The codings, in server order, as given."""
        return self._read(self._items)


cdef class LanguageNegotiator(_ListNegotiator):
    """LanguageNegotiator(tags, *, cache_size=_DEFAULT_CACHE_SIZE, max_length=_DEFAULT_MAX_LENGTH)
--

Language tags validated once; the best of them for each request's
    Accept-Language value (RFC 9110 §12.5.4, RFC 4647).

    ``choose``, ``choose_index``, ``variant_key`` and ``rank`` per request;
    the answers for recent values (up to ``cache_size``, of at most 1,024
    characters each) are cached. ``max_length`` as for ``parse_language``.
    """

    def __cinit__(self, *args, **kwargs):
        tags, cache_size, max_length = _language_negotiator_arguments(None, *args, **kwargs)
        self._set_up(LANGUAGE, tags, cache_size, max_length)

    @property
    def tags(self):
        """The language tags, in server order, as given."""
        return self._read(self._items)


cdef Kept NEGOTIATE_ENCODING = Kept(EncodingNegotiator, _AcceptEncoding._header.noun, "negotiate_encoding")
cdef Kept NEGOTIATE_LANGUAGE = Kept(LanguageNegotiator, _AcceptLanguage._header.noun, "negotiate_language")


# The one-call forms' entry points (``Kept.call``).

cdef object negotiate(object module, PyObject** args, Py_ssize_t nargs, PyObject* kwnames):
    return NEGOTIATE.call(args, nargs, kwnames)


cdef object quality(object module, PyObject** args, Py_ssize_t nargs, PyObject* kwnames):
    return QUALITY.call(args, nargs, kwnames)


cdef object negotiate_encoding(object module, PyObject** args, Py_ssize_t nargs, PyObject* kwnames):
    return NEGOTIATE_ENCODING.call(args, nargs, kwnames)


cdef object negotiate_language(object module, PyObject** args, Py_ssize_t nargs, PyObject* kwnames):
    return NEGOTIATE_LANGUAGE.call(args, nargs, kwnames)


# The docstrings of the public functions and methods are the pure engine's:
# setup.py copies them into this include at build time (``_DOCS``, by "name"
# or "Class.method"). Each goes after the signature line Cython wrote in its
# built-in's method table (embedsignature), where CPython reads both.
include "_scan_docs.pxi"

cdef extern from *:
    """
    /* A copy of the bytes `text`, kept for the life of the process. */
    static const char *fa_kept(PyObject *text) {
        char *copy = (char *)PyMem_RawMalloc(PyBytes_GET_SIZE(text) + 1);
        if (copy == NULL) PyErr_NoMemory();
        else memcpy(copy, PyBytes_AS_STRING(text), PyBytes_GET_SIZE(text) + 1);
        return copy;
    }
    /* The method table entry of a built-in method (its type's, static) or function. */
    static PyMethodDef *fa_entry(PyObject *f) {
        if (Py_IS_TYPE(f, &PyMethodDescr_Type)) return ((PyMethodDescrObject *)f)->d_method;
        if (PyCFunction_Check(f)) return ((PyCFunctionObject *)f)->m_ml;
        PyErr_Format(PyExc_TypeError, "%R is not a built-in function or method", f);
        return NULL;
    }
    /* Adds the function `def` describes to `module` as CPython makes an extension
       module's own (PyModule_AddFunctions; Cython makes them with PyCFunction_NewEx),
       which a free-threaded CPython treats as its own: threads calling them write
       no shared reference count. */
    static int fa_add_function(PyObject *module, PyMethodDef def) {
        PyMethodDef *table = (PyMethodDef *)PyMem_RawCalloc(2, sizeof(PyMethodDef));  /* and the end */
        if (table == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        table[0] = def;
        return PyModule_AddFunctions(module, table);
    }
    """
    const char* fa_kept(bytes text) except NULL
    PyMethodDef* fa_entry(object f) except NULL
    int fa_add_function(object module, PyMethodDef d) except -1


cdef int add_one_call(object module, Kept form, void* entry) except -1:
    """Adds a one-call form: its signature line, from the parameters that
    ``read_arguments`` reads, and the pure engine's docstring."""
    cdef PyMethodDef made
    names = form.names
    keywords = "".join(
        [f", {k}=None" if k == "default" else f", {k}=_DEFAULT_MAX_LENGTH" for k in names[2:]])
    made.ml_name = fa_kept(form.name.encode())
    made.ml_doc = fa_kept(
        f"{form.name}({names[0]}, {names[1]}, *{keywords})\n--\n\n{_DOCS[form.name]}".encode())
    made.ml_meth, made.ml_flags = entry, METH_FASTCALL | METH_KEYWORDS
    return fa_add_function(module, made)


cdef PyMethodDef* _entry
_module = _modules[__name__]
for _name, _doc in _DOCS.items():
    _owner, _, _attr = _name.rpartition(".")
    _target = getattr(globals().get(_owner), _attr, None) if _owner else globals().get(_attr)
    if _target is None:  # the pure engine's own helpers are not here
        continue
    _entry = fa_entry(_target)
    _entry.ml_doc = fa_kept(f"{_attr}{_target.__text_signature__}\n--\n\n{_doc}".encode())
    if not _owner:
        fa_add_function(_module, _entry[0])
add_one_call(_module, NEGOTIATE, <void*>negotiate)
add_one_call(_module, QUALITY, <void*>quality)
add_one_call(_module, NEGOTIATE_ENCODING, <void*>negotiate_encoding)
add_one_call(_module, NEGOTIATE_LANGUAGE, <void*>negotiate_language)
ENGINE = _intern(_module.__name__)
del _module
