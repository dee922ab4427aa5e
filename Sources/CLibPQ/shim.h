// libpq, PostgreSQL's C client library (Debian's libpq-dev), as a Swift module: the store's
// connection to a PostgreSQL server shared by several instances (Sources/Store).
#include <libpq-fe.h>
