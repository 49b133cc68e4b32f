"""The page-state lines that hold words of the task, said after the page state, and what
counts as a change of field values only (issue 35)."""

from __future__ import annotations

from pytest_webtask.agent.small.hints import hint, matching_lines, named_buttons, task_words

STATE = """- header
  - a-0 (href="/") "Demo Shop"
  - a-1 (href="/cart") "Cart (0)"
- main-0
  - section-0
    - h1 "Products"
    - form-0
      - input-0 (type="search" name="q" aria-label="Search products")
      - button-0 "Apply"
    - article-0
      - h2 "Linen Trousers"
      - form-1
        - select-2 (name="size" options="S|M|L" selected="S" aria-label="Size")
        - button-2 "Add to cart"
    - article-1
      - h2 "White Linen Shirt"
      - form-2
        - button-4 "Add to cart"
"""


def test_the_words_of_a_task_leave_out_what_names_no_element() -> None:
    assert task_words("Click the Submit button, then select AU.") == ["submit", "au"]
    assert task_words("the page has a Password field") == ["password"]


def test_lines_are_ranked_by_words_held_and_name_their_containers() -> None:
    lines = matching_lines(STATE, "the list shows the White Linen Shirt")
    # the line holding the most words, with the article it is in and, for a text, what its
    # article holds: the controls that act on it; "Linen Trousers" holds a third as much
    assert lines == [
        'h2 "White Linen Shirt" (in section-0 > article-1); article-1 holds button-4 '
        '"Add to cart"']
    # lines holding as much are kept, in page order
    assert matching_lines(STATE, "the linen shirt or trousers") == [
        'h2 "Linen Trousers" (in section-0 > article-0); article-0 holds select-2 '
        '(Size: S|M|L), button-2 "Add to cart"',
        'h2 "White Linen Shirt" (in section-0 > article-1); article-1 holds button-4 '
        '"Add to cart"']
    # among equals, a word written as the task writes it first, then page order
    links = '- span-0 "eget"\n- span-1 "tortor"\n- span-2 "Eget"\n- span-3 "eget"'
    assert matching_lines(links, 'Click on the link "Eget".') == [
        'span-2 "Eget"', 'span-0 "eget"', 'span-3 "eget"']
    # the limit keeps the lines holding the most words
    best = matching_lines(STATE, "add the White Linen Shirt to the cart", limit=1)
    assert best[0].startswith('h2 "White Linen Shirt" (in section-0 > article-1)')
    # a container holding more than a few controls is a list: not spelled out
    many = "- ul-0\n  - li \"Pens\"\n" + "".join(f"  - button-{n} \"Buy\"\n" for n in range(7))
    assert matching_lines(many, "the pens") == ['li "Pens" (in ul-0)']


def test_ids_and_tags_are_not_matched_only_what_the_page_says() -> None:
    # "button" and "select" name every button-N and select-N: not a match
    assert matching_lines(STATE, "the select next to the button") == []
    assert matching_lines(STATE, "choose the size")[0].startswith("select-2 ")
    # whole words: "cart" is not found in "cartoon", nor "art" in "Cart"
    assert matching_lines(STATE, "the art page") == []


def test_no_line_holding_the_words_is_said_as_such() -> None:
    assert hint(STATE, "the page has a Password field") == (
        "No line of the page state above holds any of these words: password.")
    assert hint(STATE, "the page shows it") == ""
    assert hint(STATE, "open the cart").splitlines() == [
        "Lines of the page state above that hold words of it:",
        '  a-1 (href="/cart") "Cart (0)"',  # a container with no id is not named
        '  button-2 "Add to cart" (in article-0 > form-1)',
        '  button-4 "Add to cart" (in article-1 > form-2)']


def test_a_bare_text_line_is_matched_on_every_word_its_first_too() -> None:
    """A text with no element of its own is a line of text alone: its first word is a word
    of the page like the others. Read as the line's head, it was never matched, and the
    hint told a model a name the page shows in every row was on no line."""
    inbox = """- h2 "Primary"
- div-0
  - "Audrey Ridiculus eget... Imperdiet."
  - span-1 (icon="delete")
- div-1
  - "Cora In id. Audrey at sit."
  - span-2 (icon="delete")"""
    said = hint(inbox, "Find the email by Audrey and forward it to Orel").splitlines()
    assert said == ["Lines of the page state above that hold words of it:",
                    # an icon-only control by its icon's name
                    '  "Audrey Ridiculus eget... Imperdiet." (in div-0); div-0 holds span-1 '
                    '(delete)',
                    '  "Cora In id. Audrey at sit." (in div-1); div-1 holds span-2 (delete)']
    assert hint(inbox, "open the mail from Bea") == (
        "No line of the page state above holds any of these words: mail, bea.")


def test_a_field_that_only_gained_a_value_is_a_change_of_values_only() -> None:
    from pytest_webtask.agent.changes import page_change
    from pytest_webtask.browser.page_state import PageState

    def change(before: str, after: str) -> bool:
        return page_change(PageState(before), PageState(after)).values_only

    assert change('- input-0\n- button-0 "Submit"',
                  '- input-0 (value="Agustina")\n- button-0 "Submit"')
    assert change('- input-0 (type="date")', '- input-0 (type="date" value="2010-05-20")')
    assert change('- input-3 (type="checkbox" label="x")',
                  '- input-3 (type="checkbox" checked label="x")')
    assert change('- select-0 (name="s" selected="S")', '- select-0 (name="s" selected="M")')
    # a new line, or a field's other attributes changing, is more than values
    assert not change('- input-0', '- input-0 (value="a")\n- p "Thanks"')
    assert not change('- input-0 (type="text")', '- input-0 (type="password" value="a")')


def test_a_text_find_gave_an_id_is_no_change_of_the_page() -> None:
    """``find`` gives a text inside a paragraph an id: the paragraph's line is cut in three.
    The page shows the same words: no change (a 1.5B model read "New on the page: Audrey"
    after a find as the email found); a word that did change still shows."""
    from pytest_webtask.agent.changes import page_change
    from pytest_webtask.browser.page_state import PageState

    before = ('- "Find the email by Audrey and forward it."\n- div-0\n'
              '  - "Audrey Lorem ipsum"\n- div-1\n  - "Cora Dolor"')
    marked = ('- "Find the email by"\n- text-0 "Audrey"\n- "and forward it."\n- div-0\n'
              '  - "Audrey Lorem ipsum"\n- div-1\n  - "Cora Dolor"')
    change = page_change(PageState(before), PageState(marked))
    assert change.unchanged and change.summary() == "the page did not change"
    # the marked line's words changed too: a change, shown
    edited = marked.replace('"and forward it."', '"and delete it."')
    change = page_change(PageState(before), PageState(edited))
    assert not change.unchanged and '- "and delete it."' in change.describe()
    # another line changed beside the mark: that line is shown, the mark is not
    other = marked.replace('"Cora Dolor"', '"Cora Sit"')
    change = page_change(PageState(before), PageState(other))
    assert [x.strip() for x in change.added] == ['- "Cora Sit"']
    # the same cut with no id given is a change of the page (a re-render that split it)
    split = marked.replace('- text-0 "Audrey"', '- "Audrey"')
    assert not page_change(PageState(before), PageState(split)).unchanged


def test_the_form_holding_a_changed_field_is_named_with_the_button_that_sends_it() -> None:
    from pytest_webtask.agent.small.hints import sending_forms

    changed = ['  - input-0 (type="search" name="q" value="x" aria-label="Search products")']
    assert sending_forms(STATE, changed) == (
        'input-0 is in form-0, which button-0 "Apply" sends: nothing changes on the page '
        'until it is pressed. ')
    # a field in no form: nothing to say
    assert sending_forms('- input-0\n- button-0 "Go"', ["- input-0 (value=\"x\")"]) == ""


def test_buttons_the_task_names_and_no_action_clicked() -> None:
    from pytest_webtask.agent.small.hints import named_buttons

    page = '- button-0 "Submit"\n- a-0 (href="/?page=2") "Next page"\n- button-1 "Apply"'
    assert named_buttons(page, "Type 5 and hit submit.", set()) == ['button-0 "Submit"']
    assert named_buttons(page, "Type 5 and hit submit.", {"submit"}) == []  # clicked
    assert named_buttons(page, "go to the next page", set()) == []  # links are not asked
    assert named_buttons(page, "resubmit the applying form", set()) == []  # whole words
    # a link the task quotes is named: 'find and click on the link "aliquet"'
    assert named_buttons(page, 'Click on the link "Next page".', set()) == \
        ['a-0 "Next page"']
    assert named_buttons(page, "Click on the link “next page”.", {"next page"}) == []
    # a link the task says to go to, while the page is where the task began (``links``)
    assert named_buttons(page, "go to the next page", set(), links=True) == ['a-0 "Next page"']
    assert named_buttons(page, "go to the next page", {"next page"}, links=True) == []
    shop = '- a-0 (href="/p/1") "Blue Shirt"\n- button-0 "Add to cart"'
    assert named_buttons(shop, "add the Blue Shirt to the cart", {"add to cart"},
                         links=True) == []  # named, but no way the task asks to go
    assert named_buttons(shop, "open the Blue Shirt", set(), links=True) == [
        'a-0 "Blue Shirt"']


def test_a_field_line_names_the_button_that_sends_its_form() -> None:
    # "sort by price": choosing is not enough, the form's button sends it
    assert matching_lines(STATE, "search the products")[0] == (
        'input-0 (type="search" name="q" aria-label="Search products") '
        '(in section-0 > form-0); button-0 "Apply" sends form-0')
    assert matching_lines(STATE, "choose the size")[0].endswith(
        '(in article-0 > form-1); button-2 "Add to cart" sends form-1')
    # a button of type "button" sends nothing; a field in no form has no such words
    assert matching_lines('- form-0\n  - input-0 (name="query")\n  - button-0 (type="button") '
                          '"Clear"', "the query") == ['input-0 (name="query") (in form-0)']
    assert "sends" not in matching_lines('- input-0 (name="query")\n- button-0 "Go"',
                                         "query")[0]
    # a statement to check sends nothing: its lines name no sending button
    assert matching_lines(STATE, "search the products", senders=False)[0] == (
        'input-0 (type="search" name="q" aria-label="Search products") (in section-0 > form-0)')
    assert "sends" not in hint(STATE, "the Search products field is empty", senders=False)


def test_a_line_showing_the_task_itself_is_no_hint() -> None:
    # MiniWoB++ pages show their instruction: that line would outrank the field and button
    task = "Enter 05/20/2010 as the date and hit submit."
    state = f'- "{task}"\n- input-0 (type="date")\n- button-0 "Submit"'
    assert matching_lines(state, task) == ['input-0 (type="date")', 'button-0 "Submit"']
    # a short task is not looked for inside lines: "Submit" is a line of its own
    assert matching_lines('- button-0 "Submit"', "Submit") == ['button-0 "Submit"']


def test_a_task_naming_a_kind_of_element_is_not_told_no_line_holds_it() -> None:
    state = '- textarea-0 (value="b")\n- input-0 (type="radio" label="A")'
    assert hint(state, 'Click on a "textarea" widget.') == ""
    assert hint(state, "open the settings") == (
        "No line of the page state above holds any of these words: settings.")


def test_a_quoted_text_names_any_element_that_shows_it_a_field_aside() -> None:
    state = ('- span-0 "aliquet"\n- input-0 (value="aliquet")\n- a-0 (href="#") "Next"\n'
             '- button-0 "Submit"')
    assert named_buttons(state, 'click on the link "aliquet" and submit', set()) == [
        'span-0 "aliquet"', 'button-0 "Submit"']
    # unquoted, only a button: the link "Next" may be reached another way
    assert named_buttons(state, "go to the next page", set()) == []
    # a container or a picture is no control, quoted or not
    assert named_buttons('- ul-0 "Pens"\n- img-0 (alt="x") "Logo"', 'the "Pens" and "Logo"',
                         set()) == []



def test_an_id_is_no_word_but_a_word_like_an_id_is() -> None:
    state = '- td > a-12 (href="#") "13"\n- p-0 "covid-19 cases"'
    assert matching_lines(state, "open day 12") == []
    assert matching_lines(state, "the covid-19 cases") == ['p-0 "covid-19 cases"']



def test_a_links_address_holds_no_word_of_the_page() -> None:
    state = '- a-0 (href="#tabs-2") "Second"\n- span-0 "aliquet"'
    assert matching_lines(state, 'switch the tabs to click "aliquet"') == ['span-0 "aliquet"']


def test_a_word_holds_its_plural_and_its_singular() -> None:
    """"Switch between the tabs" is about the lines saying "Tab #2"; "the jacket" about
    "Jackets"; "boxes" about "Box"; never "address" about "Addres" nor "bus" about "Bu"."""
    state = ('- a-0 (href="#tabs-1") "Tab #1"\n- a-1 "Tab #2"\n- li "Jackets"\n'
             '- span-0 "Box A"\n- span-1 "Tabby"\n- input-0 (label="Address")\n- span-2 "Bu"')
    assert matching_lines(state, "switch between the tabs") == ['a-0 (href="#tabs-1") "Tab #1"',
                                                                'a-1 "Tab #2"']
    assert matching_lines(state, "the jacket") == ['li "Jackets"']
    assert matching_lines(state, "tick the boxes") == ['span-0 "Box A"']
    assert matching_lines(state, "the address") == ['input-0 (label="Address")']
    assert matching_lines(state, "the bus") == []


def test_a_word_one_line_holds_ranks_before_words_many_lines_hold() -> None:
    """The tab holding the quoted link: every tab's line holds "tabs", one line holds
    "aliquet", and that line comes first; a line holding two words still outranks it."""
    tabs = "".join(f'- li-{i} > a-{i} (href="#tabs-{i}") "Tab #{i}"\n' for i in range(1, 6))
    state = tabs + '- div-0\n  - a-9 (href="#") "aliquet"\n  - a-8 (href="#") "orci"'
    lines = matching_lines(state, "Switch between the tabs to find the link aliquet.")
    assert lines[0] == 'a-9 (href="#") "aliquet" (in div-0)'
    assert len(lines) == 5  # four tabs still listed after it (five lines in all)
    # quoted, the link's line leaves the tabs below half its weight: one stays, for "tabs"
    assert matching_lines(state, 'Switch between the tabs to find the link "aliquet".') == [
        'a-9 (href="#") "aliquet" (in div-0)', 'li-1 > a-1 (href="#tabs-1") "Tab #1"']
    # without the rare word, page order among equals, as before
    assert matching_lines(state, "Switch between the tabs")[0].startswith("li-1 > a-1")
    both = state + '\n- p-0 "the tabs hold aliquet"'
    assert matching_lines(both, 'the tabs and "aliquet"')[0] == 'p-0 "the tabs hold aliquet"'


def test_a_position_of_a_kind_of_control_counts_that_kind_in_page_order() -> None:
    """"the 3rd checkbox", "the 2nd textbox": the control of that kind at that place of the
    page; a position with no kind after it stays a list's item; none past the count."""
    from pytest_webtask.agent.small.hints import ordinal_lines

    state = """- input-0 (type="radio" name="r" value="1")
- input-1 (type="radio" name="r" value="2")
- input-2 (type="text")
- input-3 (type="checkbox" label="A")
- input-4 (type="text")
- ul-0
  - li > a-0 (href="/p/1") "Pen"
  - li > a-1 (href="/p/2") "Ink"
- button-0 "Submit\""""
    assert ordinal_lines(state, 'Check the 1st radio button and enter "-5" into the 2nd '
                                'textbox.').splitlines() == [
        'The 1st radio button of the page (2 in all) is input-0 (type="radio" name="r" '
        'value="1").',
        'The 2nd text field of the page (2 in all) is input-4 (type="text").']
    assert ordinal_lines(state, "click the last link") == (
        'The last link of the page (2 in all) is a-1 (href="/p/2") "Ink".')
    # past the count: nothing (no list's item stands in); no kind: the list's item
    assert ordinal_lines(state, "tick the 2nd checkbox") == ""
    assert ordinal_lines(state, "open the second product") == (
        'The 2nd item of ul-0 is li > a-1 (href="/p/2") "Ink".')
    assert ordinal_lines(state, "type your first name") == ""
    assert ordinal_lines(state, "type Ada into the first name field") == ""


def test_every_word_some_line_holds_gets_a_line_past_the_five() -> None:
    """Five lines are listed by how much they hold; a word of the task that some line holds
    and none of the five does gets its best line too, up to eight in all: a task naming
    six boxes and a button was shown five of them and the button."""
    boxes = ["nb", "8qiSp3m", "pKybC69", "v8Zs3", "U6gHF", "C1", "VGJ"]
    state = "\n".join(f'- input-{n} (type="checkbox" label="{b}")'
                      for n, b in enumerate(boxes)) + '\n- button-0 "Submit"'
    said = matching_lines(state, "Select nb, 8qiSp3m, pKybC69, v8Zs3, U6gHF and click Submit.")
    assert sorted(said) == sorted([f'input-{n} (type="checkbox" label="{b}")'
                                   for n, b in enumerate(boxes[:5])] + ['button-0 "Submit"'])
    # no more than eight, and nothing that holds no word of the task
    many = "\n".join(f'- span-{n} "w{n}"' for n in range(12))
    task = " ".join(f"w{n}" for n in range(12))
    assert len(matching_lines(many, task)) == 8
    assert all("C1" not in line and "VGJ" not in line for line in said)


def test_a_line_saying_a_quoted_text_whole_ranks_first() -> None:
    """'Expand the sections below, to find and click on the link "aliquet"': once a section
    shows it, the line saying "aliquet" comes before the sections still collapsed (each
    holding "sections" and ranked up for the expanding); before, the sections lead."""
    shut = ('- h3-0 (role="tab" expanded="false") "Section #1"\n'
            '- h3-1 (role="tab" expanded="true") "Section #2"\n'
            '- div-0 (role="tabpanel")\n  - span-1 "aliquam"\n  - span-2 "aliquet"\n'
            '- h3-2 (role="tab" expanded="false") "Section #3"')
    task = 'Expand the sections below, to find and click on the link "aliquet".'
    lines = matching_lines(shut, task)
    assert lines[0] == 'span-2 "aliquet" (in div-0)', lines
    assert lines[1:3] == ['h3-0 (role="tab" expanded="false") "Section #1"',
                          'h3-2 (role="tab" expanded="false") "Section #3"']
    hidden = shut.replace('  - span-2 "aliquet"\n', "")
    assert matching_lines(hidden, task)[0].startswith("h3-0")
    # said within a longer text still counts; a word that merely starts with it does not
    assert matching_lines('- p-0 "Nascetur aliquet nulla."\n- h3-0 (expanded="false") '
                          '"Sections"', task)[0] == 'p-0 "Nascetur aliquet nulla."'


def test_a_name_a_paged_list_does_not_show_names_the_next_page() -> None:
    """"Find Casie in the contact book": the page shows Etti and a pager; the hint says no
    line holds "Casie" and which control shows the next page. Without a pager nothing is
    said (a name to type is absent too), nor for a name the page holds or one starting a
    sentence."""
    from pytest_webtask.agent.small.hints import missing_names

    book = ('- h2 "Etti"\n- "Address:"\n- a-2 "645 Stephenson Loop"\n- ul-0\n'
            '  - li > a-3 (href="#") "1"\n  - li > a-4 (href="#") ">"')
    said = hint(book, "Find Casie in the contact book and click on their address.")
    assert said.endswith('No line of the page state above holds "Casie": the list may go '
                         'on; a-4 ">" shows its next page.'), said
    assert missing_names(book, "Open Etti's address. Then call Bob") == ["Bob"]
    flat = book.split("\n- ul-0")[0]
    assert "Casie" not in hint(flat, "Find Casie in the contact book and click on their address.")
    assert "next page" not in hint(book, "Click on Etti's address.")


def test_a_quoted_text_then_words_the_task_says_names_the_element_to_click() -> None:
    """'For the user @consectetur, click on the "Block" button': the opened menu's "Block
    @consectetur" is what the task names (the done guard asks while it is unclicked);
    "Block @deneen" is not, nor "Mute @consectetur", nor anything once clicked."""
    state = ('- ul-0\n  - li-3 "Mute @consectetur"\n  - li-4 "Block @consectetur"\n'
             '  - li-5 "Block @deneen"\n  - li-6 "Blocked users"')
    task = 'For the user @consectetur, click on the "Block" button.'
    assert named_buttons(state, task, set()) == ['li-4 "Block @consectetur"']
    assert named_buttons(state, task, {"block @consectetur"}) == []


def test_a_kind_of_control_the_task_names_is_said_where_no_line_holds_its_words() -> None:
    """"Focus into the textbox" on a page whose one field says nothing: "no line holds
    textbox" beside input-0 would mislead; the page's text field is named instead."""
    state = '- "Focus into the textbox."\n- input-0 (type="text")'
    assert hint(state, "Focus into the textbox.") == (
        "The page's text field (the task names a text field): input-0 (type=\"text\").")
    two = '- "Name"\n- input-0 (type="text")\n- "Note"\n- textarea-0'
    assert hint(two, "Focus into the textbox.") == (
        "The page's text fields (the task names a text field): input-0 (type=\"text\"); "
        "textarea-0.")
    assert hint('- input-0 (type="checkbox")', "Focus into the textbox.") == (
        "No line of the page state above holds any of these words: focus, textbox.")


def test_a_text_find_gave_an_id_is_no_unclicked_name() -> None:
    """``find`` gives a bare text an id (``text-0``) so a pointer tool can take it: a cell
    the task quotes is no button the model left unclicked (issue 74)."""
    from pytest_webtask.agent.small.hints import named_buttons

    state = '- table-0\n  - tr\n    - text-0 "Ada Lovelace"\n    - button-0 "Open"'
    assert named_buttons(state, 'read the row of "Ada Lovelace"', set()) == []
    assert named_buttons(state.replace("text-0", "span-0"), 'click "Ada Lovelace"',
                         set()) == ['span-0 "Ada Lovelace"']
