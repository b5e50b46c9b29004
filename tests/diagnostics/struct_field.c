// Struct fields are named in C's terms (they were named after Clang's
// MemberExpr node): a field read, an array field of a struct through a
// pointer without restrict, an array of structs whose fields have two
// types, a subscript. (Arrays of structs with fields of one type and array
// fields of structs are accepted: structs.c, struct_members.c.)
struct point { double x, y; };
struct grid { double val[10][10]; };

void read(int n, double A[100], struct point p) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = p.x; // expected-error {{struct fields that are not arrays ('p.x') are not supported in a scop; copy the field to a local scalar before the scop (and back after it)}}
#pragma endscop
}

void through_pointer(int n, struct grid *g) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      g->val[i][j] = 0.0; // expected-error {{'g' is accessed through a pointer; declare it as an array parameter such as 'double A[N][M]', or as a 'restrict' pointer parameter}}
#pragma endscop
}

struct mixed { double x; int k; };

void mixed_fields(int n, struct mixed P[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    P[i].x += 1.0; // expected-error {{the fields of the structs of 'P' do not all have one number type}}
#pragma endscop
}

void subscript(int n, double A[100], struct point p) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = A[(int)p.y]; // expected-error {{struct fields that are not arrays ('p.y') are not supported in a scop}}
#pragma endscop
}
