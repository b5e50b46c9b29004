//===- IslExtras_Polynomial.cpp - Piecewise quasi-polynomials -------------===//
//
// PwQPolynomial, the owner of an isl_pw_qpolynomial that isl/cpp.h 0.25
// lacks: counts of elements and iterations as polynomials in the
// parameters (see IslExtras.h).
//
//===----------------------------------------------------------------------===//
#include "IslExtras.h"

#include <isl/aff.h>
#include <isl/point.h>
#include <isl/polynomial.h>
#include <isl/printer.h>

#include <cstdlib>
#include <utility>

namespace polycuda::polyhedral {

PwQPolynomial::PwQPolynomial(const isl::pw_aff &pa)
    : ptr(isl_pw_qpolynomial_from_pw_aff(pa.copy())) {}

PwQPolynomial::PwQPolynomial(const PwQPolynomial &other)
    : ptr(isl_pw_qpolynomial_copy(other.ptr)) {}

PwQPolynomial::PwQPolynomial(PwQPolynomial &&other) noexcept
    : ptr(std::exchange(other.ptr, nullptr)) {}

PwQPolynomial &PwQPolynomial::operator=(PwQPolynomial other) noexcept {
  std::swap(ptr, other.ptr);
  return *this;
}

PwQPolynomial::~PwQPolynomial() { isl_pw_qpolynomial_free(ptr); }

PwQPolynomial PwQPolynomial::add(const PwQPolynomial &other) const {
  return PwQPolynomial(isl_pw_qpolynomial_add(
      isl_pw_qpolynomial_copy(ptr), isl_pw_qpolynomial_copy(other.ptr)));
}

PwQPolynomial PwQPolynomial::mul(const PwQPolynomial &other) const {
  return PwQPolynomial(isl_pw_qpolynomial_mul(
      isl_pw_qpolynomial_copy(ptr), isl_pw_qpolynomial_copy(other.ptr)));
}

PwQPolynomial PwQPolynomial::scale(unsigned long factor) const {
  if (!ptr)
    return PwQPolynomial();
  isl_val *v = isl_val_int_from_ui(isl_pw_qpolynomial_get_ctx(ptr), factor);
  return PwQPolynomial(
      isl_pw_qpolynomial_scale_val(isl_pw_qpolynomial_copy(ptr), v));
}

PwQPolynomial PwQPolynomial::gistParams(const isl::set &context) const {
  return PwQPolynomial(isl_pw_qpolynomial_gist_params(
      isl_pw_qpolynomial_copy(ptr), context.copy()));
}

PwQPolynomial PwQPolynomial::coalesce() const {
  return PwQPolynomial(
      isl_pw_qpolynomial_coalesce(isl_pw_qpolynomial_copy(ptr)));
}

std::string PwQPolynomial::toCString() const {
  if (!ptr)
    return "";
  isl_printer *p = isl_printer_to_str(isl_pw_qpolynomial_get_ctx(ptr));
  p = isl_printer_set_output_format(p, ISL_FORMAT_C);
  p = isl_printer_print_pw_qpolynomial(p, ptr);
  char *s = isl_printer_get_str(p);
  std::string text = s ? s : "";
  free(s);
  isl_printer_free(p);
  return text;
}

std::optional<double> PwQPolynomial::value() const {
  if (!ptr || isl_pw_qpolynomial_dim(ptr, isl_dim_param) != 0)
    return std::nullopt;
  isl_space *space = isl_pw_qpolynomial_get_domain_space(ptr);
  isl_val *v = isl_pw_qpolynomial_eval(isl_pw_qpolynomial_copy(ptr),
                                       isl_point_zero(space));
  std::optional<double> result;
  if (v && !isl_val_is_nan(v))
    result = isl_val_get_d(v);
  isl_val_free(v);
  return result;
}

} // namespace polycuda::polyhedral
