// SPDX-License-Identifier: Apache-2.0
// A doubly-linked list threaded through its elements (which carry `prev` and `next`), so the
// matching queues can remove a matched entry from the middle in O(1) without allocating.
#pragma once

namespace simmpi::mpi {

template <class T>
class IntrusiveList {
 public:
  bool empty() const { return head_ == nullptr; }
  T* front() const { return head_; }

  void push_back(T* x) {
    x->next = nullptr;
    x->prev = tail_;
    (tail_ ? tail_->next : head_) = x;
    tail_ = x;
  }

  void remove(T* x) {
    (x->prev ? x->prev->next : head_) = x->next;
    (x->next ? x->next->prev : tail_) = x->prev;
    x->prev = x->next = nullptr;
  }

  // First element for which pred(x) holds, in insertion order; nullptr if none.
  template <class Pred>
  T* find(Pred&& pred) const {
    for (T* x = head_; x; x = x->next)
      if (pred(*x)) return x;
    return nullptr;
  }

 private:
  T* head_ = nullptr;
  T* tail_ = nullptr;
};

}  // namespace simmpi::mpi
