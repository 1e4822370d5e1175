/** The help page and the privacy notice: user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). Apart from help-messages.ts so a parent's first screen (the contact link) never downloads these long texts. */
/** The help page (/help): the questions a parent asks before and after ordering, by section id. */
export const HELP_MSG = {
  title: 'Help',
  intro: 'Answers to the questions parents ask most. Step by step pictures of ordering are on the How It Works page.',
  sections: [
    {
      id: 'access',
      question: "How do I open my child's photos?",
      answer: [
        "Your school chose one of two ways. Most schools share a school password with parents: choose the school on the home page and type it. A class can have its own password too; the school gives it to that class's parents.",
        "Other schools give each family a flyer with a private student code. Type the code under \"I have a student code\", or scan the flyer's QR code with your phone's camera. A code opens only your child's photos and their class's group photos. Use \"Add Another Child\" for a brother or sister.",
      ],
    },
    {
      id: 'contact',
      question: "I don't have the password or code",
      answer: [
        'Only your school can give it to you. On the home page, choose your school and press "Contact your school" under the password: it writes an e-mail to the school office. A lost flyer can be printed again by the school.',
      ],
    },
    {
      id: 'ordering',
      question: 'How do I order?',
      answer: [
        'Open a photo, tick the products you want, choose how many, and press "Add to Cart". When you are done, open the cart and press "Place Order and Pay".',
        "Photos of children at different schools are separate orders, because each school's prints are delivered to that school: the checkout takes one school at a time and keeps the others in your cart.",
        'If the studio changes a price while a photo waits in your cart, the checkout shows the old and the new price and asks you to accept it before you pay.',
      ],
    },
    {
      id: 'payment',
      question: 'How do I pay, and what if the payment fails?',
      answer: [
        "Prices are in Botswana Pula. You pay by card on PayGate's secure page; we never see your card number.",
        'If the card is declined or you leave the payment page, nothing is charged and your photos stay in your cart. Press "Try Again", or open the cart: it offers to pay the same order. Signed in, you can also pay or cancel an unpaid order in My Orders.',
      ],
    },
    {
      id: 'delivery',
      question: 'Where are my prints delivered?',
      answer: ['Prints are delivered to the school, not to your home. The school lets you know when they are ready to collect.'],
    },
    {
      id: 'digital-copies',
      question: 'How do I get a digital copy?',
      answer: [
        'Once the payment is confirmed, a Download link appears on the order page, in the confirmation e-mail and in My Orders. Each link works for 30 days; My Orders always has fresh ones.',
      ],
    },
    {
      id: 'closing-dates',
      question: 'Is there a deadline?',
      answer: ["A school may have a closing date for prints. After it the gallery says so, and only digital copies can still be ordered."],
    },
    {
      id: 'account',
      question: 'Do I need an account?',
      answer: [
        'No. Your first order creates an account with your e-mail address, and we e-mail you a link to choose a password. With it, My Orders shows all your orders and their downloads.',
      ],
    },
    {
      id: 'data',
      question: 'My phone has little data. Does the app work offline?',
      answer: [
        'Add the app to your home screen when your browser offers it. Classes and photos you opened once are kept on the phone and open without a connection; your cart is saved too. Photos you have not opened yet show when you are back online, and ordering needs a connection.',
      ],
    },
  ],
  privacyLink: 'How we look after your family’s information',
} as const;

/** The privacy notice (/privacy): what is kept about children and guardians, for how long, and erasure. */
export const PRIVACY_MSG = {
  title: 'Privacy Notice',
  intro: (business: string) =>
    `${business} photographs children at their schools and sells the photos to their families. This notice says what we keep about children and their parents or guardians, why, for how long, and how to have it removed. We process personal data under the Botswana Data Protection Act, 2024.`,
  sections: [
    {
      id: 'what',
      heading: 'What we keep',
      items: [
        "About children: their photos, and where the school uses student codes, the child's name, class, an optional student number and a private code.",
        'About parents and guardians who order: name, e-mail address, optional phone number, the student name typed at checkout, notes, what was ordered and whether it was paid. We never see or keep card numbers: PayGate handles the payment.',
        'If you create an account or it is created at checkout: your name, e-mail address and a scrambled form of your password.',
        'On your own phone: the codes and classes you opened, your cart and the photos you viewed, so they work offline.',
      ],
    },
    {
      id: 'why',
      heading: 'Why',
      items: [
        "To show each family only the photos they may see, to take and deliver orders, to send order and password e-mails, and to keep the studio's accounts. We do not sell or share this information for advertising.",
        'Photos are shown only behind the school password, a class password or the child\'s own code, with a watermark; the full photo is sent only to the family that paid for a digital copy. A child whose school asks for it is never shown or sold at all.',
      ],
    },
    {
      id: 'how-long',
      heading: 'How long',
      items: [
        'Photos, student names and codes: for as long as the school works with us, or until the family or the school asks us to remove them.',
        'Orders and accounts: as long as the law requires us to keep business records; a child removed at the family\'s request is also removed from orders (they keep only the words "photo removed at the family\'s request").',
        'On your phone: access to a school or child lasts 7 days from the last password or code typed, a sign-in 30 days. "Forget this child on this device" removes a child, their photos and their cart lines from the phone at once.',
      ],
    },
    {
      id: 'erasure',
      heading: 'Your rights and how to ask for erasure',
      items: [
        'You may ask to see the information we keep about you or your child, to have it corrected, and to have your child\'s photos and details erased. Ask your child\'s school (use "Contact your school" on the home page), which passes the request to us, or reply to any e-mail we sent you.',
        'When a child is erased, their photos are deleted, their code stops working on every phone, and their name is removed from orders. Orders that were not paid are cancelled.',
        'If you are not satisfied with our answer you may complain to the Information and Data Protection Commission of Botswana.',
      ],
    },
  ],
} as const;
