;; Strict UTF-8 validation (RFC 3629) of memory[start, end), 16 bytes per step with 128-bit
;; SIMD: the "lookup" algorithm of Keiser and Lemire, "Validating UTF-8 In Less Than One
;; Instruction Per Byte" (2021). Each byte is checked against the one, two and three bytes
;; before it: three 16-entry table lookups (by the high nibble of the byte before, its low
;; nibble, and the high nibble of this byte) flag every bad two-byte pair, and the third and
;; fourth bytes of 3- and 4-byte sequences are checked to be continuations.
;;
;; `validate` returns -1 when the range is valid, else the offset of the 16-byte block in
;; which an error was first seen. The offending sequence starts at most 3 bytes before the
;; place it is seen, so it starts at or after (block - 16); the JS side (utf8.ts) finds the
;; exact byte from there, with the validator every other path uses.
;;
;; The caller leaves 16 readable bytes after `end`: the last, partial block is loaded whole
;; and its bytes from `end` on are cleared. That zero-padded block is always checked, so a
;; sequence cut off by `end` shows as a lead byte followed by ASCII.
(module
  (memory (export "memory") 1)

  ;; The three tables, each indexed by a nibble: every entry a set of the error bits below.
  ;; TOO_SHORT 1: a lead byte not followed by a continuation
  ;; TOO_LONG 2: a continuation after an ASCII byte
  ;; OVERLONG_3 4: e0 80-9f
  ;; TOO_LARGE 8: f4 90-bf, or f5-ff and a continuation
  ;; SURROGATE 16: ed a0-bf
  ;; OVERLONG_2 32: c0 or c1 and a continuation
  ;; TOO_LARGE_1000 / OVERLONG_4 64: f5-ff 80-8f / f0 80-8f
  ;; TWO_CONTS 128: a continuation after a continuation (right only as a 3rd or 4th byte)

  (func (export "validate") (param $start i32) (param $end i32) (result i32)
    (local $p i32)
    (local $last i32)
    (local $in v128)
    (local $prev v128)
    (local $prev1 v128)
    (local $incomplete v128)
    ;; The constants, in locals: the loop uses them from registers.
    (local $byte1High v128)
    (local $byte1Low v128)
    (local $byte2High v128)
    (local $lowNibble v128)
    (local $thirdBias v128)
    (local $fourthBias v128)
    (local $high v128)
    (local $tooClose v128)
    (local.set $byte1High (v128.const i8x16 2 2 2 2 2 2 2 2 128 128 128 128 33 1 21 73))
    (local.set $byte1Low (v128.const i8x16 231 163 131 131 139 203 203 203 203 203 203 203 203 219 203 203))
    (local.set $byte2High (v128.const i8x16 1 1 1 1 1 1 1 1 230 174 186 186 1 1 1 1))
    (local.set $lowNibble (i8x16.splat (i32.const 0x0f)))
    (local.set $thirdBias (i8x16.splat (i32.const 0x60)))
    (local.set $fourthBias (i8x16.splat (i32.const 0x70)))
    (local.set $high (i8x16.splat (i32.const 0x80)))
    (local.set $tooClose (v128.const i8x16 255 255 255 255 255 255 255 255 255 255 255 255 255 0xef 0xdf 0xbf))
    (local.set $p (local.get $start))
    ;; $prev: the block before, all ASCII at the start (bytes before `start` are no part of
    ;; the text). $incomplete: non-zero where the block before has a lead byte too close to
    ;; its end for its sequence to end in it; an ASCII block after that is an error.
    (loop $blocks
      (if (i32.le_u (i32.add (local.get $p) (i32.const 16)) (local.get $end))
        (then
          (local.set $in (v128.load (local.get $p)))
          ;; An ASCII block needs no lookups: it only must not follow an incomplete sequence,
          ;; and the ASCII blocks after it need one test each.
          (if (i32.eqz (i8x16.bitmask (local.get $in)))
            (then
              (if (v128.any_true (local.get $incomplete)) (then (return (local.get $p))))
              (local.set $incomplete (v128.const i64x2 0 0))
              (loop $ascii
                (local.set $prev (local.get $in))
                (local.set $p (i32.add (local.get $p) (i32.const 16)))
                (br_if $blocks (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
                (local.set $in (v128.load (local.get $p)))
                (br_if $ascii (i32.eqz (i8x16.bitmask (local.get $in))))))))
        (else
          ;; The last 0-15 bytes, the rest of the block cleared (lanes at or past end - p).
          (local.set $last (i32.const 1))
          (local.set $in
            (v128.and
              (v128.load (local.get $p))
              (i8x16.gt_u
                (i8x16.splat (i32.sub (local.get $end) (local.get $p)))
                (v128.const i8x16 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15))))))
      ;; The byte before each byte of `in`.
      (local.set $prev1 (i8x16.shuffle 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 (local.get $prev) (local.get $in)))
      (if (v128.any_true
            (v128.xor
              ;; A continuation two bytes after an e0+ lead or three after an f0+ one must be
              ;; there (0x80 in those lanes), and is the only place TWO_CONTS (0x80) is
              ;; right: the two cancel out, anything else left is an error.
              (v128.and
                (v128.or
                  (i8x16.sub_sat_u
                    (i8x16.shuffle 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 (local.get $prev) (local.get $in))
                    (local.get $thirdBias))
                  (i8x16.sub_sat_u
                    (i8x16.shuffle 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 (local.get $prev) (local.get $in))
                    (local.get $fourthBias)))
                (local.get $high))
              ;; The nibbles by 16-bit shifts and a mask: one instruction fewer each than
              ;; i8x16.shr_u, which builds its mask inside the loop.
              (v128.and
                (v128.and
                  ;; by the high nibble of the byte before
                  (i8x16.swizzle (local.get $byte1High)
                    (v128.and (i16x8.shr_u (local.get $prev1) (i32.const 4)) (local.get $lowNibble)))
                  ;; by its low nibble
                  (i8x16.swizzle (local.get $byte1Low) (v128.and (local.get $prev1) (local.get $lowNibble))))
                ;; by the high nibble of this byte
                (i8x16.swizzle (local.get $byte2High)
                  (v128.and (i16x8.shr_u (local.get $in) (i32.const 4)) (local.get $lowNibble))))))
        (then (return (local.get $p))))
      (if (local.get $last) (then (return (i32.const -1))))
      ;; Saturating subtraction leaves a non-zero byte only for a lead byte too close to
      ;; the end of the block: c0+ in the last, e0+ in the last two, f0+ in the last three.
      (local.set $incomplete (i8x16.sub_sat_u (local.get $in) (local.get $tooClose)))
      (local.set $prev (local.get $in))
      (local.set $p (i32.add (local.get $p) (i32.const 16)))
      (br $blocks))
    (unreachable))
)
