#!/usr/bin/env bash
# View ▸ Language as a user meets it (gui.language_switch in CMakeLists.txt):
#   language_switch.sh NORMLAB XVFB_RUN LECTURE COMPARE_PNG WORKDIR
# Two NormLab processes under one Xvfb (1280×720), each on the lecture's slide 7 (its scene's title,
# the slide's own caption, the Depth lab) with the Slides panel open, driven by keys only (xdotool:
# Alt to the menu bar, → → ↓ opens View, ↓ to Language, → opens it, ↓ and Space choose) and read
# through --text-log (the texts of the latest frame) and F12 screenshots.
# 1. Started in English (LANG=C, nothing remembered), switched to 한국어: the menus, a lab panel's
#    heading, a plot's title, the Slides panel's slide titles and the status line are in Korean and
#    the English ones are gone; every worded text still in English is one that a fresh Korean start
#    also shows in English (the norm names, the papers' names); presenter view (F5) shows the
#    scene's Korean title and the slide's Korean caption, and its header's pixels are those of the
#    fresh Korean start's (Hangul drawn with the glyphs a Korean start has, not boxes).
# 2. Started again without --lang: in Korean (the choice is remembered in ~/.config/normlab/language).
#    Switched to 简体中文 (another catalog, the Han forms of Chinese), then to English: the same
#    texts in Chinese, then in English again, the others gone; "en" remembered.
# Prints "ok: …" per check; exits 1 at the first failure.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/window_lib.sh"

key() {   # one tap; the input queue feeds it in frames of its own (input_queue.hpp)
    xdotool key --delay 10 "$1"
    sleep 0.3
}

# choose_language LOG N: View ▸ Language ▸ the N-th language (1 English, 2 한국어, 3 简体中文).
# The Depth lab's View menu has Language as its 8th item.
choose_language() {
    local log=$1 n=$2
    key alt
    key Right
    key Right
    key Down   # opens View
    for _ in 1 2 3 4 5 6 7; do key Down; done
    key Right
    wait_for "简体中文" "$log" || fail "View's 8th item did not open the Language menu (an item added to View?): $(head -c 600 "$log")"
    for _ in $(seq 2 "$n"); do key Down; done
    key space
}

# screenshot DIR: F12, then the PNG the window saved in DIR (its working folder; written
# atomically), within 20 s.
screenshot() {
    local png
    key F12
    for _ in $(seq 1 100); do
        png=$(ls "$1"/normlab-*.png 2>/dev/null | head -n 1)
        [ -n "$png" ] && { echo "$png"; return 0; }
        sleep 0.2
    done
    return 1
}

expect_texts() {   # expect_texts LOG WHAT TEXT…: each TEXT on screen
    local log=$1 what=$2 text
    shift 2
    for text in "$@"; do wait_for "$text" "$log" || fail "$what: \"$text\" not on screen: $(head -c 800 "$log")"; done
    echo "ok: $what"
}

expect_gone() {   # expect_gone LOG WHAT TEXT…: no TEXT on screen
    local log=$1 what=$2 text
    shift 2
    for text in "$@"; do wait_gone "$text" "$log" || fail "$what: \"$text\" still on screen"; done
    echo "ok: $what"
}

# The texts in each language: menus, the Depth lab's Run heading, the loss plot's title, the
# Slides panel's line for slide 7 (its scene's title), the status line (the lecture's title).
EN=("View" "Run" "Training loss" "7.  Where the norm goes" "Slide 7 / 9 · Root Mean Square Layer Normalization")
KO=("보기" "실행" "학습 손실" "7.  정규화를 어디에 두는가" "슬라이드 7 / 9 · 평균 제곱근 레이어 정규화")
ZH=("视图" "运行" "训练损失" "7.  归一化放在哪里" "幻灯片 7 / 9 · 均方根层归一化")
EN_SLIDE=("Where the norm goes: Post-LN, Pre-LN, NormFormer" "Shleifer et al. 2021 (125M–2.7B parameters, pretraining)")
KO_SLIDE=("정규화를 어디에 두는가: Post-LN, Pre-LN, NormFormer" "Shleifer 등 2021(파라미터 125M–2.7B, 사전학습)")
HEADER_ROWS=(0 150)   # presenter view at 1280×720: title and three caption lines (the run's progress below)

if [ "${1:-}" = "--inner" ]; then   # inside the X server: --inner APP LECTURE COMPARE DIR
    app=$2 lecture=$3 compare=$4 dir=$5
    export LANG=C.UTF-8
    unset LC_ALL LC_MESSAGES LANGUAGE
    start() {   # start NAME: normlab in DIR/NAME, its text log DIR/NAME.txt
        mkdir -p "$dir/$1"
        (cd "$dir/$1" && exec "$app" --lecture "$lecture" --slide 7 --edit-lecture panel --size 1280x720 \
            --autosave "$dir/$1.autosave.json" --text-log "$dir/$1.txt" >"$dir/$1.out.txt" 2>"$dir/$1.stderr.txt") &
        pid=$!
        timeout 30 xdotool search --sync --onlyvisible --name '^NormLab$' >/dev/null || { kill "$pid"; fail "no NormLab window within 30 s"; }
        xdotool mousemove --sync 640 700   # the pointer over the window: it gets the keys (no window manager)
    }

    start en
    expect_texts "$dir/en.txt" "started in English" "${EN[@]}"
    choose_language "$dir/en.txt" 2
    expect_texts "$dir/en.txt" "View ▸ Language ▸ 한국어: menus, lab panel, plot, Slides panel, status line in Korean" "${KO[@]}"
    expect_gone "$dir/en.txt" "the English texts are gone" "${EN[@]}"
    cp "$dir/en.txt" "$dir/switched.txt"
    key F5
    expect_texts "$dir/en.txt" "presenter view: the scene's title and the slide's caption in Korean" "${KO_SLIDE[@]}"
    switched_png=$(screenshot "$dir/en") || fail "F12 saved no screenshot"
    normlab_quit "$pid" "$dir/en.stderr.txt" || exit 1
    [ "$(cat "$HOME/.config/normlab/language" 2>/dev/null)" = ko ] || fail "the choice is not remembered: $(cat "$HOME/.config/normlab/language" 2>&1)"
    echo "ok: 한국어 remembered"

    start ko
    expect_texts "$dir/ko.txt" "started again without --lang: in Korean" "${KO[@]}"
    sleep 1   # the whole frame logged
    python3 - "$dir/switched.txt" "$dir/ko.txt" <<'PY' || exit 1
import re, sys
# A worded text still in English after the switch must be one a Korean start shows in English too
# (numbers aside: the training runs on).
def english(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    return {re.sub(r"[0-9]+", "#", l) for l in lines if re.search(r"[A-Za-z]{3,}", l) and not re.search(r"[가-힣]", l)}
left = sorted(english(sys.argv[1]) - english(sys.argv[2]))
print(("FAIL: still in English after the switch, not at a Korean start: " + " | ".join(left)) if left
      else "ok: every text a Korean start shows in Korean is in Korean after the switch")
sys.exit(1 if left else 0)
PY
    key F5
    expect_texts "$dir/ko.txt" "presenter view at a Korean start" "${KO_SLIDE[@]}"
    start_png=$(screenshot "$dir/ko") || fail "F12 saved no screenshot"
    "$compare" "$switched_png" "$start_png" --max-mean 0.05 --max-differing 0 --rows "${HEADER_ROWS[@]}" ||
        fail "the slide's header after the switch is not drawn as at a Korean start"
    key F5
    choose_language "$dir/ko.txt" 3
    expect_texts "$dir/ko.txt" "View ▸ Language ▸ 简体中文: in Chinese" "${ZH[@]}"
    expect_gone "$dir/ko.txt" "the Korean texts are gone" "${KO[@]}"
    choose_language "$dir/ko.txt" 1
    expect_texts "$dir/ko.txt" "View ▸ Language ▸ English: English again" "${EN[@]}"
    expect_gone "$dir/ko.txt" "the Chinese texts are gone" "${ZH[@]}"
    key F5
    expect_texts "$dir/ko.txt" "presenter view in English again" "${EN_SLIDE[@]}"
    normlab_quit "$pid" "$dir/ko.stderr.txt" || exit 1
    [ "$(cat "$HOME/.config/normlab/language" 2>/dev/null)" = en ] || fail "English is not remembered"
    echo "ok: English remembered"
    exit 0
fi

app=$1 xvfb=$2 lecture=$3 compare=$4 dir=$5
normlab_test_dir "$dir"
"$xvfb" -a -s "-screen 0 1280x720x24" bash "$0" --inner "$app" "$lecture" "$compare" "$dir"
