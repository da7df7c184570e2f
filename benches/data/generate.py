#!/usr/bin/env python3
"""Generate examples/support/labelled.jsonl: 600 labelled support tickets.

Standard library only and deterministic (fixed seed): running it twice writes the same
bytes. From the repository root:

    python3 benches/data/generate.py

Every ticket is composed from independent latent factors, and its labels *are* those
factors, so they follow from what the text means rather than from which words it uses:

* intent   - what the customer wants (an `intent` option of questions.yaml). Chosen first,
             exactly balanced, and expressed by a "core" paraphrase template.
* urgency  - the consequence situation (an `urgency` rubric level, 0..4). Drawn from
             per-intent weights and expressed by the core's scope (a question, a one-person
             problem, a company-wide outage) plus a consequence sentence that fits the core.
* escalate - whether the customer is upset *and* demands a human or manager. Expressed by a
             frustration sentence plus a demand sentence. The false side deliberately holds
             upset customers who demand nothing, calm customers who mention a manager in
             another sense ("my account manager told me to write"), offers of a call, and
             explicit "no need to escalate" negations.
* product feature, item, amounts, customer details and noise (greetings, sign-offs, order
  numbers, account IDs, cross-intent distractor sentences) vary independently of the labels.

Keywords are decoupled from labels: refund tickets that never say "refund", billing and
shipping tickets that say "I don't need a refund", technical tickets that say "I can log in
fine", subjects that are generic ("Quick one", "Following up"), "Not urgent:" subjects on
level 0-1 tickets and urgent situations that never say "urgent".
"""

import json
import random
import sys
from collections import Counter
from pathlib import Path

SEED = 20250305
COUNT = 600
MESSAGES_SHARE = 0.10
MIN_CHARS, MAX_CHARS = 150, 900
HERE = Path(__file__).resolve().parent
OUT = HERE.parent.parent / "examples" / "support" / "labelled.jsonl"

INTENTS = ["refund", "billing", "technical", "account_access", "shipping", "feedback"]

# Urgency weights per intent, levels 0..4. Feedback never needs anything done (level 0);
# billing and shipping problems here never amount to a many-user outage (level 4).
URGENCY_WEIGHTS = {
    "refund":         [0.14, 0.24, 0.30, 0.22, 0.10],
    "billing":        [0.34, 0.26, 0.22, 0.18, 0.00],
    "technical":      [0.00, 0.22, 0.26, 0.22, 0.30],
    "account_access": [0.10, 0.20, 0.26, 0.20, 0.24],
    "shipping":       [0.16, 0.28, 0.32, 0.24, 0.00],
    "feedback":       [1.00, 0.00, 0.00, 0.00, 0.00],
}
# Probability of escalate=true among tickets whose core allows an upset customer
# (praise and neutral questions never escalate); ~30% overall.
ESCALATE_RATE = 0.36

# --------------------------------------------------------------------------- slot values

NAMES = [
    "Priya Raman", "Tom Becker", "Aiko Tanaka", "Luis Ortega", "Grace Okafor", "Mateo Silva",
    "Hannah Schultz", "Omar Haddad", "Chloe Martin", "Dmitri Volkov", "Fatima Zahra", "Jonas Berg",
    "Sofia Rossi", "Kwame Mensah", "Emily Clarke", "Ravi Iyer", "Lena Novak", "Marcus Reid",
    "Yuki Sato", "Ana Costa", "Ben Carter", "Ingrid Lund", "Samir Patel", "Olivia Brooks",
    "Nora Fischer", "Diego Ramos", "Mei Lin", "Patrick Doyle", "Zainab Ali", "Erik Johansson",
]
COMPANIES = [
    "Larkspur Design", "Northgate Dental", "Bluefin Logistics", "Cedar & Co", "Brightpath Tutors",
    "Orbit Studio", "Harbour Bakery", "Summit Legal", "Kestrel Analytics", "Maple Street Clinic",
    "Tidewater Events", "Quill Publishing",
]
AGENTS = ["Miguel", "Sara", "Jonah", "Aisha", "Pete", "Mariko", "Leon"]
ACCOUNT_MANAGERS = ["Dana", "Rob", "Ines", "Kofi", "Maja"]
COUNTRIES = ["US", "GB", "DE", "FR", "NL", "ES", "CA", "AU", "IE", "SE", "IN", "BR"]
COUNTRY_NAMES = ["Norway", "Switzerland", "Iceland", "Mexico", "South Africa", "Japan"]

# (feature, task it blocks, symptom, error message, screen)
FEATURES = [
    ("CSV export", "export our monthly report", "the file downloads completely empty",
     "Export failed (code 500)", "the Reports page"),
    ("calendar sync", "schedule client meetings", "new events never show up in Google Calendar",
     "Sync error: token invalid", "the Calendar settings"),
    ("the reporting dashboard", "review this week's numbers", "the charts spin and never load",
     "Request timed out", "the Dashboard"),
    ("the invoice generator", "send invoices to our clients", "every PDF comes out blank",
     "Template rendering failed", "the Invoices tab"),
    ("file uploads", "share designs with the client", "uploads stall at 99% and then vanish",
     "Upload failed: network error", "the Files page"),
    ("the Slack integration", "get alerts to the team", "notifications stopped arriving in our channel",
     "Integration disconnected", "the Integrations page"),
    ("webhooks", "sync orders to our warehouse system", "about one in five events never arrives",
     "HTTP 504 Gateway Timeout", "the Developer settings"),
    ("search", "find client records", "results come back empty even for exact names",
     "Search index unavailable", "the Search page"),
    ("the task board", "plan the sprint", "cards snap back to their old column after I move them",
     "Conflict: stale version", "the Board view"),
]
ALTERNATIVES = ["the web version", "the mobile app", "the desktop app", "a spreadsheet"]
ADDONS = ["the Advanced Reporting add-on", "an extra storage pack", "the Priority Support add-on",
          "three extra seats", "the AI Assistant add-on", "a second workspace"]
MISSING = ["offline mode", "a Gantt view", "two-way Outlook sync", "custom invoice templates",
           "bulk import from Excel", "multi-currency invoices"]
REFUND_REASONS = [
    "I never used the service after that date.",
    "The plan was supposed to be cancelled by then.",
    "It was charged after I'd already downgraded.",
    "I was told on chat that it wouldn't be charged.",
]

# (item, damage description)
ITEMS = [
    ("standing desk frame", "one of the legs is bent and the motor rattles"),
    ("ergonomic chair", "the gas lift is cracked and an armrest snapped off"),
    ("USB-C dock", "the casing is split and it won't power on"),
    ("monitor arm", "the clamp arrived snapped in half"),
    ("mechanical keyboard", "several keys are missing and the cable is frayed"),
    ("4K webcam", "the lens is scratched right across the middle"),
    ("label printer", "the paper feed is broken and it jams on every label"),
    ("barcode scanner", "the trigger is stuck and the screen is cracked"),
    ("noise-cancelling headset", "the headband is snapped"),
    ("card reader", "the display is cracked and it won't pair"),
]
CARRIERS = ["DHL", "UPS", "FedEx", "the courier", "Royal Mail", "DPD"]
SSO_ERRORS = ["SAML response invalid", "Invalid audience", "User not provisioned", "IdP certificate expired"]

DEADLINES = [
    "our board report is due at 4pm today",
    "I'm presenting to a client in two hours",
    "payroll has to be approved by 5pm today",
    "the quarter closes tonight",
    "our campaign goes live this afternoon",
    "the auditors arrive first thing tomorrow and need this before end of day",
    "a client is waiting on this before they sign today",
]
FINANCE_DEADLINES = [
    "the quarter closes tonight",
    "the auditors arrive first thing tomorrow and need this before end of day",
    "our accountant files the VAT return today",
    "finance pays suppliers this afternoon and needs the paperwork first",
]

PRAISE = [
    "the new editor is fantastic", "your support team has been brilliant this year",
    "the mobile app has really improved since the last update", "the new reports save me an hour a week",
    "onboarding our new hires was painless", "the Slack integration is exactly what we needed",
]
WISHES = [
    "a dark mode", "keyboard shortcuts for inserting tables", "recurring tasks with custom intervals",
    "an export to Google Sheets", "a way to archive old projects in bulk", "per-project colour labels",
    "two-way Outlook sync",
]
SUGGESTIONS = [
    "group the onboarding steps by role", "show the invoice total on the list view",
    "let us pin favourite reports to the sidebar", "add a 'snooze' button to notifications",
    "make the search box remember recent queries",
]
AREAS = ["dashboard", "settings", "sidebar", "calendar", "reports"]
REDESIGN_ISSUES = [
    "I now need three clicks to get to things that used to take one",
    "the contrast is so low I struggle to read the labels",
    "the buttons moved around and my team keeps clicking the wrong one",
]
ONBOARDING_ISSUES = [
    "our new hires didn't know where to find the templates",
    "the checklist doesn't say which steps only admins can do",
    "the welcome video is out of date",
]

# --------------------------------------------------------------------------- core templates


def C(text, levels, subjects, mood="any", tags=()):
    """A core paraphrase: its text, the urgency levels it can carry, subject lines that fit it,
    mood ("calm": praise or a neutral question, never paired with an upset tone) and tags
    that consequence sentences may require (see URGENCY)."""
    return {"text": text, "levels": tuple(levels), "subjects": subjects, "mood": mood, "tags": set(tags)}


CORES = {
    "refund": [
        C("I'd like a refund for the {amount} charge from {date}. {refund_reason}", [1, 2, 3],
          ["Refund request", "Refund for the {date} charge"], tags=["charge"]),
        C("Please refund order {order}. The {item} was a gift and the person already had one, so I sent it "
          "back unopened last week.", [1, 2, 3], ["Refund for order {order}", "Returned gift"], tags=["charge"]),
        C("I was billed {amount} for {addon}, which I never ordered, and I'd like that reversed.", [1, 2, 3],
          ["Charge I didn't authorise", "Billed for something I didn't order"], tags=["charge"]),
        C("I cancelled my {plan_title} subscription on {date} but was still charged {amount} afterwards. "
          "Please put that money back on my card.", [1, 2, 3],
          ["Charged after cancelling", "Still being charged"], tags=["charge"]),
        C("I upgraded my plan by mistake yesterday and haven't used any of the extra features. Could "
          "you return the payment and move me back to what I had?", [1, 2, 3],
          ["Accidental upgrade", "Upgraded by mistake"], tags=["charge"]),
        C("The {item} I sent back reached your warehouse on {date} according to the tracking, but the "
          "{amount} still hasn't been credited back to my card.", [1, 2, 3],
          ["Returned item - no credit yet", "Return received but not credited"], tags=["charge"]),
        C("My card was charged twice for the same invoice ({invoice}). Please send the duplicate "
          "payment back to the card it came from.", [1, 2, 3],
          ["Duplicate payment", "Charged twice"], tags=["charge"]),
        C("The product doesn't do what the sales page promised - there's no {missing}. I'm still within "
          "the 30-day guarantee and want my money back.", [1, 2, 3],
          ["Money back please", "30-day guarantee"], tags=["charge"]),
        C("Our team shrank and we removed {k} seats part-way through the annual term. Is it possible to "
          "get the unused portion of what we paid returned?", [0, 1, 2],
          ["Unused seats", "Removed seats mid-term"], tags=["charge"]),
        C("I forgot to cancel the free trial and got charged {amount}. I haven't logged in since the "
          "trial ended - could you reverse the charge?", [1, 2, 3],
          ["Trial charge", "Charged after the trial"], tags=["charge"]),
        C("What's your policy on returning money for the unused months if we cancel an annual plan "
          "early? We'd like to cancel at the end of this month and get the remainder back.", [0],
          ["Cancelling an annual plan early", "Question about cancelling"], mood="calm"),
        C("I cancelled order {order} an hour after placing it, before it shipped, and I'd like the "
          "{amount} to go back to my original payment method.", [1, 2, 3],
          ["Cancelled order {order}", "Order cancelled - payment?"], tags=["charge"]),
        C("Your system has charged our company card {k} times in the last hour for the same renewal, "
          "and new charges keep appearing. We need these charges stopped and the money returned.", [4],
          ["Card being charged repeatedly", "Charges won't stop"], tags=["charge"]),
        C("A glitch in your renewal run billed every one of our {n} member accounts twice this morning, "
          "and the duplicate charges are still going out. Please reverse all of them.", [4],
          ["Everyone double-charged", "Duplicate charges on all accounts"], tags=["charge"]),
    ],
    "billing": [
        C("I don't need a refund, just an explanation of the {amount} charge on invoice {invoice}.", [0],
          ["Question about my invoice", "What is this charge?"]),
        C("Could you add our VAT number ({vat}) to invoice {invoice} and reissue it?", [0, 1, 2, 3],
          ["VAT number on invoice", "Invoice correction"], tags=["paper"]),
        C("I'm trying to update the card on file before it expires, but the form keeps saying the card "
          "was declined. The card works everywhere else.", [1, 2, 3],
          ["Card update fails", "Can't update payment card"], tags=["payment", "card"]),
        C("What happens to our bill if we move from {plan_title} to {plan2_title} mid-cycle? Is the "
          "difference prorated onto the next invoice?", [0],
          ["Changing plans mid-cycle", "Plan change question"], mood="calm"),
        C("Our latest invoice lists {n} seats, but only {m} people actually use the workspace. Can you "
          "explain how seats are counted so I can tell our finance team?", [0],
          ["Seats on invoice", "How are seats counted?"]),
        C("Please change the billing address and company name on our invoices to {company}, {street}.",
          [0, 1, 3], ["Billing address change", "Update invoice details"], tags=["paper"]),
        C("The price of my renewal went up from {amount} to {amount2}. I'm not asking for anything back, "
          "I'd just like to understand why the plan costs more now.", [0],
          ["Price change at renewal", "Why did my price go up?"]),
        C("We'd like to stop paying by card and switch to annual invoicing with bank transfer. Is that "
          "possible on the {plan_title} plan?", [0],
          ["Paying by bank transfer", "Payment method question"], mood="calm"),
        C("We were charged in USD, but our account is set to EUR. Can you switch the billing currency "
          "for future invoices?", [0, 1, 2], ["Wrong billing currency", "Currency on invoices"], tags=["paper"]),
        C("Our payment failed this month and the account now shows a 'past due' banner. How can I retry "
          "the payment with a different card?", [2, 3], ["Payment failed", "Past due banner"], tags=["payment"]),
        C("There are two charges of {amount} this month. Was my plan price changed, or is one of them a "
          "mistake? If it's a mistake, a credit on next month's bill is fine.", [0, 1, 2],
          ["Two charges this month", "Double charge?"], tags=["charge"]),
        C("Our invoices go to an address nobody reads any more. Can you change the billing contact to "
          "{billing_email}?", [0, 1, 2], ["Billing contact", "Where invoices are sent"], tags=["paper"]),
    ],
    "technical": [
        C("{feature_cap} stopped working after yesterday's update: {symptom}.", [1, 2, 3],
          ["{feature_cap} broken after update", "Bug after update"]),
        C("Every time I try to {task}, I get the error '{error}'.", [1, 2, 3],
          ["Error: {error}", "Error when I try to {task}"]),
        C("{feature_cap} has been failing on and off since {date} - {symptom}.", [1, 2, 3],
          ["{feature_cap} failing intermittently", "Intermittent failures"]),
        C("I can log in fine, but once I'm in, {screen} is completely blank.", [1, 2, 3],
          ["Blank screen after login", "{screen_cap} is blank"]),
        C("The changes I made yesterday in {screen} aren't there this morning. It looks like the save "
          "silently failed.", [1, 2, 3], ["Changes not saved", "Data missing"]),
        C("{screen_cap} just spins forever. I've tried another browser and cleared the cache, same "
          "result.", [1, 2, 3], ["{screen_cap} won't load", "Stuck loading"]),
        C("The totals in {screen} don't match the raw export - something is off with the calculation.",
          [1, 2, 3], ["Wrong totals in {screen}", "Numbers don't add up"]),
        C("I'm not after a refund, I just need {feature} working again - {symptom}.", [1, 2, 3],
          ["{feature_cap} not working", "Please fix {feature}"]),
        C("The mobile app crashes every time I open the project list, on both my phone and my tablet.",
          [1, 2, 3], ["App crashing", "Mobile app crash"], tags=["mobile"]),
        C("Since {time} none of our {n} users can load the app - it's a blank page for everyone.", [4],
          ["App down for everyone", "Nobody can load the app"], tags=["org"]),
        C("Every request to your orders API has returned '{error}' since {time}. Our checkout depends "
          "on it, so none of our customers can pay right now.", [4],
          ["Orders API down", "API returning errors"]),
        C("Your update this morning broke {feature} for our whole organisation; nobody on our {n}-person "
          "team can {task}.", [4], ["{feature_cap} broken for everyone", "Update broke {feature}"], tags=["org"]),
    ],
    "account_access": [
        C("I can't log in - it says my password is incorrect, even straight after resetting it.", [1, 2, 3],
          ["Can't log in", "Password not accepted"]),
        C("The password reset email never arrives. I've tried several times and checked spam.", [1, 2, 3],
          ["Password reset not arriving", "No reset email"]),
        C("I got a new phone and my authenticator app didn't transfer, so I can't get past the "
          "two-factor screen any more.", [1, 2, 3], ["2FA problem", "Lost authenticator"]),
        C("Our previous admin left the company and we need workspace ownership transferred to me. He "
          "isn't reachable any more.", [0, 2, 3], ["Ownership transfer", "Admin left the company"]),
        C("My account was locked after too many attempts and the unlock link has already expired.", [1, 2, 3],
          ["Account locked", "Unlock link expired"]),
        C("I'd like to change the email address I sign in with - I no longer have access to the old "
          "mailbox.", [0, 2], ["Login email change", "Change sign-in email"]),
        C("Signing in with SSO fails for me with '{sso_error}'. Everyone else on my team seems fine.",
          [1, 2, 3], ["SSO sign-in", "SSO error: {sso_error}"]),
        C("I'm not sure whether I signed up with Google or with an email and password, and neither lets "
          "me in.", [1, 2, 3], ["Can't get in", "Which login did I use?"]),
        C("I need to get into my account to download last month's invoice, but the login page just "
          "reloads every time I submit my details.", [1, 2, 3],
          ["Login page keeps reloading", "Can't log in to get an invoice"]),
        C("How do I turn on two-factor authentication for everyone in our workspace? We'd like to make "
          "it mandatory.", [0], ["Enforcing 2FA", "Two-factor for the team"], mood="calm"),
        C("I just got an alert about a sign-in from a country I've never been to, and now my password "
          "doesn't work. Someone may be in our admin account right now, with our company card and "
          "customer data.", [4], ["Account compromised", "Suspicious sign-in"], tags=["breach"]),
        C("SSO stopped working after this morning's change and nobody in our company ({n} people) can "
          "sign in.", [4], ["SSO down for everyone", "Nobody can sign in"], tags=["org"]),
        C("In the last hour {k} of our users have had their passwords changed without doing it "
          "themselves, and now they're locked out.", [4],
          ["Passwords changed without permission", "Possible breach"], tags=["breach"]),
    ],
    "shipping": [
        C("Order {order} ({item}) was due on {date}, but the tracking hasn't updated since.", [1, 2, 3],
          ["Where is order {order}?", "Tracking not updating"], tags=["awaiting"]),
        C("{carrier_cap} marked order {order} as delivered, but nothing arrived and the neighbours "
          "haven't got it either.", [1, 2, 3],
          ["Parcel marked delivered but not here", "Missing delivery"], tags=["awaiting"]),
        C("The {item} arrived damaged - {damage}. Could you send a replacement?", [1, 2, 3],
          ["Damaged item", "{item_cap} arrived broken"], tags=["have"]),
        C("I ordered the {item} (order {order}) and received a {item2} instead. Could you send the "
          "right one?", [1, 2, 3], ["Wrong item received", "Order {order} - wrong item"], tags=["have"]),
        C("Can I change the delivery address on order {order}? It hasn't shipped yet.", [0, 1, 3],
          ["Change delivery address", "Order {order} address"]),
        C("My parcel is held at customs and they want import fees that weren't mentioned at checkout. "
          "Who is supposed to pay these?", [1, 2, 3], ["Parcel stuck at customs", "Import fees?"],
          tags=["awaiting"]),
        C("Only two of the three boxes for order {order} turned up - the {item} is missing.", [1, 2, 3],
          ["Missing box", "Order {order} incomplete"], tags=["awaiting"]),
        C("It's been two weeks since I ordered the {item} and it still says 'processing'. When will it "
          "actually ship?", [0, 1, 2, 3], ["When will my order ship?", "Order still processing"],
          tags=["awaiting"]),
        C("I'm not after my money back, I just need the {item} from order {order} to actually arrive. "
          "The tracking has said 'in transit' for ten days.", [1, 2, 3],
          ["Order {order} stuck in transit", "Still waiting for my order"], tags=["awaiting"]),
        C("Do you ship the {item} to {country_name}, and roughly how long does delivery take? I'd like "
          "to order one next month.", [0], ["Shipping to {country_name}?", "Delivery times"], mood="calm"),
    ],
    "feedback": [
        C("Just wanted to say that {praise}.", [0], ["Thank you", "Just a quick thanks"], mood="calm"),
        C("A feature request: it would be great to have {wish}.", [0], ["Feature request", "Idea: {wish}"],
          mood="calm"),
        C("A small suggestion - {suggestion}.", [0], ["Suggestion", "Small idea"], mood="calm"),
        C("The new {area} redesign is harder to use than the old one; {redesign_issue}. It's not a bug, "
          "just my two cents.", [0], ["A thought on the redesign", "New {area} design"]),
        C("Please pass my thanks on to {agent}, who sorted out my problem in a few minutes last week.",
          [0], ["Thanks to {agent}", "Great support"], mood="calm"),
        C("Have you considered {wish}? It would save our team a lot of time.", [0],
          ["Feature idea", "Product suggestion"], mood="calm"),
        C("I wanted to share that your new pricing feels unfair to small teams like ours. I'm not asking "
          "for any change to my own account, but I think you should know.", [0],
          ["New pricing", "Feedback on pricing"]),
        C("Everything works fine, but the onboarding could be clearer: {onboarding_issue}.", [0],
          ["Onboarding feedback", "Feedback"], mood="calm"),
        C("We've used the product for {years} years now and wanted to share what's working well: "
          "{praise}.", [0], ["Feedback", "What's working well"], mood="calm"),
        C("The export bug I reported last month is fixed now - thanks! One more idea while I'm here: "
          "{wish}.", [0], ["Bug fixed - thanks!", "Thanks, and one idea"], mood="calm"),
        C("I'm writing about how my last chat went: the agent closed the conversation while I was still "
          "typing. The issue itself got solved in the end, but it left a bad impression.", [0],
          ["Feedback on your support", "About my last chat"]),
        C("The last release removed the compact list view. I've adjusted and can work without it, but "
          "it felt like a step backwards and I wanted you to know.", [0],
          ["Compact view removed", "Feedback on the latest release"]),
    ],
}

# --------------------------------------------------------------------------- urgency sentences


def U(text, intents=None, needs=None, calm=False):
    """A consequence sentence for one urgency level: the intents it fits (None: any), a core tag
    it needs (None: any core of those intents), and whether it only fits a calm customer."""
    return {"text": text, "intents": intents, "needs": needs, "calm": calm}


PROBLEMS = ("refund", "billing", "technical", "account_access", "shipping")
MONEY = ("refund", "billing")
BLOCKING = ("technical", "account_access")

URGENCY = {
    0: [
        U("No rush at all - whenever someone has a moment is fine.", calm=True),
        U("There's no deadline on this, I'm just planning ahead.", PROBLEMS, calm=True),
        U("Nothing is affected right now; I'm only asking so I know for the future.", PROBLEMS, calm=True),
        U("Please answer whenever it's convenient.", PROBLEMS, calm=True),
        U("It isn't time-sensitive in any way.", calm=True),
        U("Not urgent! Just curious.", PROBLEMS, calm=True),
        U("Take your time with this one.", calm=True),
        U("No need to reply, I just wanted to pass this on.", ("feedback",), calm=True),
        U("No action needed on your side.", ("feedback",), calm=True),
    ],
    1: [
        U("It's only a minor annoyance, and I can work around it for now.", BLOCKING),
        U("It's not blocking anything - I'm using {alt} in the meantime.", ("technical",)),
        U("It's not blocking anything - I'm using {alt} in the meantime.", ("account_access",), "lockout"),
        U("It would be nice to have it sorted this week, but I can manage until then."),
        U("Low priority on my end; it's more of an inconvenience than a real problem."),
        U("I can live with it for a few days, I just wanted to flag it."),
        U("Not urgent - I'm getting by without it for now.", BLOCKING + ("shipping",)),
        U("It's a small amount, so there's no big hurry, but I'd like it corrected.", MONEY, "charge"),
        U("The current card still works until the end of the month, so there's a bit of time.", ("billing",), "card"),
        U("I don't need it right away, so a few more days is fine.", ("shipping",), "awaiting"),
    ],
    2: [
        U("I'm stuck until this is fixed, though there's no hard deadline.", BLOCKING),
        U("I can't get on with my work until this is sorted.", BLOCKING),
        U("This is stopping me from being able to {task}, although nothing is due immediately.", ("technical",)),
        U("There's no workaround that I can find, so I'm stuck for now.", BLOCKING),
        U("It's holding me up - could someone look at it in the next day or so?", BLOCKING + ("shipping",)),
        U("It's a noticeable amount for me, so I'd like it sorted this week.", MONEY, "charge"),
        U("There's no hard deadline, but it isn't a trivial sum and I'd like it dealt with in the next few days.",
          MONEY, "charge"),
        U("This does need sorting out, though it doesn't have to be today.", MONEY),
        U("Our accountant is waiting on it, though not for any particular date.", ("billing",), "paper"),
        U("I can't finish our expense report until it's sorted, but there's no fixed deadline.", ("billing",), "paper"),
        U("I'd like to get the payment through this week so the account stays in good standing.", ("billing",), "payment"),
        U("I've been waiting on it to set up my home office, so it's holding me up, but there's no fixed date.",
          ("shipping",), "awaiting"),
        U("I can't start using it until it's here, so I'm a bit stuck, though nothing hangs on a particular day.",
          ("shipping",), "awaiting"),
        U("I can't use what I've got, so I'm stuck for now, though there's no fixed date.", ("shipping",), "have"),
    ],
    3: [
        U("I need this resolved today - {deadline}.", BLOCKING + ("billing",)),
        U("This has to be sorted before end of day: {deadline}.", BLOCKING + ("billing",)),
        U("It can't wait until tomorrow, because {deadline}.", BLOCKING + ("billing",)),
        U("That charge has overdrawn my account and the bank is charging me fees, so I need it back today.",
          ("refund",)),
        U("My rent is due tomorrow morning and I need that money back in my account today.", ("refund",)),
        U("Our finance team closes the books tonight, so this needs to be settled today.", MONEY),
        U("If it isn't sorted by tonight the account gets suspended, and we can't afford that.", ("billing",), "payment"),
        U("It's for a trade show that opens tomorrow morning, so I need to know today whether it will make it.",
          ("shipping",)),
        U("It's a birthday present for tomorrow, so I really need an answer today.", ("shipping",)),
        U("I'm moving out of this address tomorrow, so it has to be sorted today.", ("shipping",)),
        U("It's equipment for a new hire who starts tomorrow; I need this resolved today.", ("shipping",)),
    ],
    4: [
        U("This is affecting all {n} people on our team right now.", BLOCKING, "org"),
        U("Our whole operation is at a standstill.", BLOCKING, "org"),
        U("It's still happening as we speak."),
        U("Please treat this as an emergency."),
        U("We're losing money every minute this continues.", ("technical", "refund")),
        U("Our own customers are already complaining.", ("technical",)),
        U("Anyone could be reading our customer data right now.", ("account_access",), "breach"),
        U("Every new charge is coming straight out of our operating account as we speak.", ("refund",)),
        U("Payroll and supplier payments go out of that account today and it's being drained.", ("refund",)),
    ],
}

# --------------------------------------------------------------------------- tone / escalation

FRUSTRATION = [
    "This is the third time I'm writing about this and I'm honestly fed up.",
    "Frankly, this is unacceptable.",
    "I've been going round in circles with your support for a week now.",
    "I'm losing my patience with this.",
    "Your canned replies are not helping in the slightest.",
    "I'm extremely frustrated - nobody seems to read what I write.",
    "This is ridiculous.",
    "I am furious about how this has been handled.",
]
DEMANDS = [
    "I want to speak to a manager.",
    "Get me a real person, not another bot.",
    "Escalate this to a supervisor or a manager today.",
    "I demand a call from someone in charge.",
    "Put me through to a human who can actually fix this.",
    "I want your manager to call me today, not another email.",
    "Stop sending me templates - I want to talk to an actual human being.",
    "I'm done with the chatbot. Let me speak to a person now.",
]
# escalate=false: upset, but no demand for a person.
UPSET_NO_DEMAND = {
    "problem": [
        "Honestly, I'm pretty annoyed about this.",
        "This is really disappointing - please just fix it.",
        "I'm frustrated, but I don't need a manager, I just want it sorted.",
        "This is completely unacceptable and I'm not happy.",
        "I've lost a lot of time over this and I'm fed up.",
        "It's the second time this has happened, which is annoying.",
    ],
    "feedback": [
        "Honestly, it really annoyed me.",
        "I'm quite disappointed, to be frank.",
        "It's frustrating that nobody asked customers first.",
        "I'm not happy about it, but there's nothing you need to do for me.",
    ],
}
# escalate=false: calm mentions of people and managers in another sense, or offers of a call.
PERSON_MENTIONS = [
    "My account manager, {account_manager}, told me to write in here.",
    "I've copied my manager on this email for visibility.",
    "My manager asked me to look into this for the team.",
    "No need to escalate this or involve a manager - a reply by email is fine.",
    "Happy to talk it through on a call if that's easier, but email works too.",
    "I'm the office manager, so please reply to me rather than the account owner.",
    "Please pass my thanks to your team lead, the last agent was very helpful.",
]
POLITE = [
    "Thanks in advance for your help.",
    "I appreciate you looking into this.",
    "Thanks for your help!",
    "Many thanks.",
]

# --------------------------------------------------------------------------- distractors
# Sentences with another intent's vocabulary that do not change what the customer wants.

DISTRACTORS = {
    "refund": [
        "While I was looking into this I also reset my password, but that part is sorted now.",
        "The app itself works fine, by the way - this is only about the money.",
        "Your delivery of my earlier order was quick, no complaints there.",
    ],
    "billing": [
        "I've already logged in and checked the billing page myself.",
        "The product itself is great, this is purely about the paperwork.",
        "I reset my password last week, in case that matters.",
    ],
    "technical": [
        "Billing is all up to date on our side, so it isn't a payment issue.",
        "I've already tried logging out and back in.",
        "I don't want any money back, I just need it working.",
    ],
    "account_access": [
        "I'm on the {plan_title} plan and our invoice is paid, so it's not a billing issue.",
        "I'm not asking for a refund or anything, I just need to get in.",
        "Nothing else in the app seems broken - it is just getting in that fails.",
    ],
    "shipping": [
        "I've paid for the order and the payment went through fine.",
        "My account login works, so I can see the order page - it just doesn't help.",
        "I don't want a refund, I'd rather have the item.",
    ],
    "feedback": [
        "There's nothing wrong with my account, this is just an idea.",
        "No need to change anything on my invoice or plan.",
        "I'm not reporting a bug - everything works.",
    ],
}
MONEY_WORDS = ("refund", "money back")

# --------------------------------------------------------------------------- subjects / noise

GENERIC_SUBJECTS = ["Help please", "Question", "Quick one", "Re: ticket {ref}", "Following up",
                    "Hello", "Need assistance", "Support request"]
UPSET_SUBJECTS = ["Complaint", "Still not fixed", "Third email about this", "Very disappointed",
                  "No reply to my last ticket"]
URGENT_SUBJECT_PREFIX = ["URGENT: ", "Emergency: ", "Critical - "]
GREETINGS = ["Hi,", "Hello,", "Hello team,", "Good morning,", "Hey there,", "Hi support,", "Dear support team,"]
SIGNOFFS = ["Thanks,\n{first}", "Best regards,\n{name}", "Cheers,\n{first}", "Regards,\n{name}\n{company}",
            "Kind regards,\n{name}", "{first}"]
NOISE = [
    "Account ID: {acct}.", "Ticket ref {ref}.", "Hope you're having a good week.",
    "I'm on the {plan_title} plan, in case that helps.", "We're a team of {n} at {company}.",
]
SHIPPING_NOISE = ["Order number for reference: {order}.", "Hope you're having a good week.", "Ticket ref {ref}."]
ASSISTANT_ACKS = {
    "problem": [
        "Thanks for reaching out! Could you share the email address on the account so I can look into this?",
        "I'm sorry to hear that. Let me check on this for you.",
        "Thanks for the details - I've passed this to the relevant team. Is there anything else I should know?",
        "Thanks for contacting us. Can you tell me a bit more about the situation?",
        "Got it. I'm looking into it now.",
    ],
    "feedback": [
        "Thanks so much for taking the time to write! I'll pass this on to the product team.",
        "Thank you for the feedback. Is there anything else you'd like to add?",
        "Thanks for letting us know - I've logged it for the team.",
    ],
}
ASSISTANT_FOLLOWUPS = [
    "Have you tried signing out and back in, or using a different browser?",
    "Could you send a screenshot so I can pass it on?",
    "I've added a note to your ticket and our team will be in touch.",
]


def cap(s):
    return s[:1].upper() + s[1:]


def make_context(rng, intent, level, core):
    feature, task, symptom, error, screen = rng.choice(FEATURES)
    if "mobile" in core["tags"]:
        screen, task = "the project list", "check in on site visits"
    (item, damage), (item2, _) = rng.sample(ITEMS, 2)
    name = rng.choice(NAMES)
    company = rng.choice(COMPANIES)
    plan, plan2 = rng.sample(["starter", "pro", "business"], 2)
    if level == 4:
        n = rng.choice([25, 40, 60, 85, 120, 200, 350])
        plan = rng.choice(["business", "enterprise"])
    else:
        n = rng.choice([5, 8, 10, 12, 15, 20])
    base = rng.choice([9, 15, 29, 49, 79, 99, 149, 199, 349, 588])
    alts = ALTERNATIVES if intent != "technical" or "mobile" not in core["tags"] else ["the web version"]
    domain = company.split()[0].lower() + ".example"
    return {
        "feature": feature, "feature_cap": cap(feature), "task": task, "symptom": symptom,
        "error": error, "screen": screen, "screen_cap": cap(screen),
        "item": item, "item_cap": cap(item), "damage": damage, "item2": item2,
        "name": name, "first": name.split()[0], "company": company, "domain": domain,
        "billing_email": f"accounts@{domain}",
        "agent": rng.choice(AGENTS), "account_manager": rng.choice(ACCOUNT_MANAGERS),
        "plan": plan, "plan_title": cap(plan), "plan2_title": cap(plan2),
        "amount": f"${base}.00", "amount2": f"${round(base * rng.choice([1.2, 1.4, 1.5]))}.00",
        "order": f"#{rng.randint(10000, 99999)}", "invoice": f"INV-{rng.randint(10000, 99999)}",
        "ref": f"{rng.randint(100000, 999999)}", "acct": f"acc_{rng.randint(10**7, 10**8 - 1)}",
        "vat": f"{rng.choice(['DE', 'FR', 'NL', 'IE'])}{rng.randint(10**8, 10**9 - 1)}",
        "street": f"{rng.randint(2, 180)} {rng.choice(['Harbour Street', 'Mill Lane', 'Station Road', 'Elm Avenue'])}",
        "date": rng.choice(["Monday", "Tuesday", "the 2nd", "the 5th", "the 14th", "March 3rd", "last Friday"]),
        "time": rng.choice(["09:00", "about 14:20 UTC", "early this morning", "11:30", "lunchtime"]),
        "n": n, "m": rng.randint(2, n - 1), "k": rng.randint(3, 9), "years": rng.randint(2, 7),
        "alt": rng.choice(alts),
        "deadline": rng.choice(FINANCE_DEADLINES if intent == "billing" else DEADLINES),
        "carrier_cap": cap(rng.choice(CARRIERS)), "sso_error": rng.choice(SSO_ERRORS),
        "missing": rng.choice(MISSING), "addon": rng.choice(ADDONS),
        "refund_reason": rng.choice(REFUND_REASONS), "country_name": rng.choice(COUNTRY_NAMES),
        "praise": rng.choice(PRAISE), "wish": rng.choice(WISHES), "suggestion": rng.choice(SUGGESTIONS),
        "area": rng.choice(AREAS), "redesign_issue": rng.choice(REDESIGN_ISSUES),
        "onboarding_issue": rng.choice(ONBOARDING_ISSUES),
    }


def customer(rng, intent, ctx):
    c = {"name": ctx["name"]}
    if intent == "shipping":
        c["plan"] = "consumer"
        c["country"] = rng.choice(COUNTRIES)
    else:
        c["plan"] = ctx["plan"]
        if ctx["plan"] in ("business", "enterprise"):
            c["seats"] = ctx["n"]
    c["tenure_months"] = rng.randint(0, 60)
    if rng.random() < 0.4:
        c["email"] = f"{ctx['first'].lower()}@{ctx['domain']}"
    return c


def urgency_sentences(intent, level, core, upset):
    """The consequence sentences that fit this intent, level and core."""
    tags = core["tags"] | ({"lockout"} if intent == "account_access" and 1 in core["levels"] else set())
    return [u["text"] for u in URGENCY[level]
            if (u["intents"] is None or intent in u["intents"])
            and (u["needs"] is None or u["needs"] in tags)
            and not (upset and u["calm"])]


def build(rng, intent, level, escalate, core, ctx, messages):
    """Compose one state; return (state, text length)."""
    f = lambda s: s.format(**ctx)
    kind = "feedback" if intent == "feedback" else "problem"
    text = core["text"]

    # Tone first, so the consequence sentence can avoid contradicting it.
    lead, tone, upset = [], [], escalate
    if escalate:
        tone += rng.sample(FRUSTRATION, 2 if rng.random() < 0.3 else 1)
        tone.append(rng.choice(DEMANDS))
    else:
        r = rng.random()
        if core["mood"] != "calm" and r < 0.28:
            tone.append(rng.choice(UPSET_NO_DEMAND[kind]))
            upset = True
        elif r < 0.52:
            mention = f(rng.choice(PERSON_MENTIONS))
            (lead if rng.random() < 0.3 else tone).append(mention)
            if rng.random() < 0.4:
                tone.append(rng.choice(POLITE))
        elif rng.random() < 0.6:
            tone.append(rng.choice(POLITE))

    core_parts = [f(text)]
    if rng.random() < 0.35:
        pool = [d for d in DISTRACTORS[intent]
                if not (any(w in d for w in MONEY_WORDS) and any(w in text for w in MONEY_WORDS))]
        core_parts.insert(0 if rng.random() < 0.3 else 1, f(rng.choice(pool)))

    consequences = []
    pool = urgency_sentences(intent, level, core, upset)
    # Level 0 cores are questions or opinions on their own; the sentence is optional there.
    if pool and (level > 0 or rng.random() < 0.7):
        consequences.append(f(rng.choice(pool)))
        if level == 4 and rng.random() < 0.5:
            rest = [s for s in pool if f(s) not in consequences]
            if rest:
                consequences.append(f(rng.choice(rest)))

    noise_pool = SHIPPING_NOISE if intent == "shipping" else NOISE
    noise = [f(s) for s in rng.sample(noise_pool, rng.choice([0, 0, 1, 1, 2]))]

    if messages:
        acks = ASSISTANT_ACKS[kind]
        user1 = " ".join(lead + core_parts)
        if rng.random() < 0.5:
            user1 = rng.choice(["Hi, ", "Hello. ", "Hey, "]) + user1
        turns = [user1, rng.choice(acks)]
        if escalate and rng.random() < 0.6:
            # The frustration builds over a longer conversation.
            turns += [" ".join(consequences + noise) or "Any update on this?",
                      rng.choice(ASSISTANT_FOLLOWUPS), " ".join(tone)]
        else:
            turns.append(" ".join(consequences + noise + tone) or "Any update on this?")
        roles = ["user", "assistant"]
        state = {"messages": [{"role": roles[i % 2], "content": t} for i, t in enumerate(turns)]}
        return state, sum(len(t) for t in turns)

    middle = core_parts + consequences if rng.random() < 0.75 else consequences + core_parts
    body = []
    if rng.random() < 0.7:
        body.append(rng.choice(GREETINGS))
    body.append(" ".join(lead + middle + tone))
    if noise:
        body.append(" ".join(noise))
    if rng.random() < 0.75:
        body.append(f(rng.choice(SIGNOFFS)))
    if rng.random() < 0.05:
        body.append("Sent from my iPhone")
    body = "\n\n".join(body)

    r = rng.random()
    if upset and r < 0.2:
        subject = rng.choice(UPSET_SUBJECTS)
    elif r < 0.25:
        subject = f(rng.choice(GENERIC_SUBJECTS))
    else:
        subject = f(rng.choice(core["subjects"]))
    if level == 4 and rng.random() < 0.5:
        subject = rng.choice(URGENT_SUBJECT_PREFIX) + subject
    elif level <= 1 and not upset and rng.random() < 0.1:
        subject = "Not urgent: " + subject
    state = {"subject": subject, "body": body, "customer": customer(rng, intent, ctx)}
    return state, len(subject) + len(body)


def generate():
    rng = random.Random(SEED)
    intents = [INTENTS[i % len(INTENTS)] for i in range(COUNT)]
    rng.shuffle(intents)
    n_messages = round(COUNT * MESSAGES_SHARE)
    forms = [i < n_messages for i in range(COUNT)]
    rng.shuffle(forms)
    rows = []
    for i, (intent, messages) in enumerate(zip(intents, forms)):
        level = rng.choices(range(5), weights=URGENCY_WEIGHTS[intent])[0]
        core = rng.choice([c for c in CORES[intent] if level in c["levels"]])
        escalate = core["mood"] != "calm" and rng.random() < ESCALATE_RATE
        for _ in range(100):
            ctx = make_context(rng, intent, level, core)
            state, length = build(rng, intent, level, escalate, core, ctx, messages)
            if MIN_CHARS <= length <= MAX_CHARS:
                break
        else:
            raise SystemExit(f"could not build ticket {i} within {MIN_CHARS}..{MAX_CHARS} characters")
        rows.append({
            "example_id": f"s-{i + 1:04d}",
            "state": state,
            "annotations": {
                "intent": {"answer": intent},
                "urgency": {"answer": level},
                "escalate": {"answer": escalate},
            },
        })
    return rows


def main():
    # `--count N --seed S --out PATH` make a larger set for timing (benches/align.rs); the
    # defaults write the committed file.
    global COUNT, SEED
    args = sys.argv[1:]
    out = OUT
    for flag, value in zip(args[::2], args[1::2]):
        if flag == "--count":
            COUNT = int(value)
        elif flag == "--seed":
            SEED = int(value)
        elif flag == "--out":
            out = Path(value)
        else:
            raise SystemExit(f"unknown flag {flag} (known: --count, --seed, --out)")
    rows = generate()
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} examples to {out.name}")
    for q in ("intent", "urgency", "escalate"):
        counts = Counter(r["annotations"][q]["answer"] for r in rows)
        order = INTENTS if q == "intent" else sorted(counts)
        print(f"{q:9s} " + "  ".join(f"{json.dumps(k).strip(chr(34))}={counts[k]}" for k in order))
    forms = Counter("messages" if "messages" in r["state"] else "ticket" for r in rows)
    print(f"form      ticket={forms['ticket']}  messages={forms['messages']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
